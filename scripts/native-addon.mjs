// The native add-on of hnswlib-node (the vector index), reused from the
// repository's own install instead of compiled again into a new one.
//
// hnswlib-node ships C++ sources, and every install builds them with node-gyp:
// 16 s of CPU (35 s at a load of 11 on two cores), for `npm run bundle` and
// for test/e2e/package.test.ts alike. Built from the same version, for the same
// operating system, CPU and Node ABI, the add-on is the same program, so a new
// install may take the one already built. Anything else (another version, a
// node_modules copied from another machine, another Node) gets the normal build.
// Plain ESM, as bundle.mjs, which imports it; native-addon.d.mts types it for the tests.

import { copyFile, mkdir, open, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export const ADDON_PACKAGE = 'hnswlib-node';
// Where node-gyp puts a release build, and the first place the package's loader (`bindings`) looks.
const RELEASE = ['build', 'Release'];

/** The first bytes of a loadable library on each platform: ELF, Mach-O (either byte order, or universal), PE. */
const LIBRARY_MAGIC = {
  linux: [[0x7f, 0x45, 0x4c, 0x46]],
  darwin: [
    [0xcf, 0xfa, 0xed, 0xfe],
    [0xfe, 0xed, 0xfa, 0xcf],
    [0xca, 0xfe, 0xba, 0xbe],
  ],
  win32: [[0x4d, 0x5a]],
};

async function startsWithMagic(file, platform) {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4), 0, 4, 0);
    return (LIBRARY_MAGIC[platform] ?? []).some((magic) => bytesRead >= magic.length && magic.every((byte, i) => buffer[i] === byte));
  } finally {
    await handle.close();
  }
}

/**
 * The built add-on files (absolute paths) of `root`'s node_modules/hnswlib-node
 * if they stand in for a build of `version` here: the installed version is that
 * one, and node-gyp's record of the build (build/config.gypi) names this CPU
 * and this Node's ABI (process.versions.modules), and the files are libraries
 * of this operating system. Otherwise `{ reason }`, a sentence saying why not.
 */
export async function builtAddon(root, version) {
  const dir = path.join(root, 'node_modules', ADDON_PACKAGE);
  const release = path.join(dir, ...RELEASE);
  try {
    const installed = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')).version;
    if (installed !== version) return { reason: `the repository has ${ADDON_PACKAGE} ${installed}, not ${version}` };
    // node-gyp writes this file as one comment line, then JSON.
    const gypi = await readFile(path.join(dir, 'build', 'config.gypi'), 'utf8');
    const { variables = {} } = JSON.parse(gypi.replace(/^#.*$/gm, ''));
    if (String(variables.node_module_version) !== process.versions.modules) {
      return { reason: `it was built for Node ABI ${variables.node_module_version}, and this Node's is ${process.versions.modules}` };
    }
    if (variables.target_arch !== process.arch) return { reason: `it was built for ${variables.target_arch}, and this CPU is ${process.arch}` };
    const files = (await readdir(release)).filter((name) => name.endsWith('.node')).map((name) => path.join(release, name));
    if (files.length === 0) return { reason: `there is no .node file in ${release}` };
    for (const file of files) {
      if (!(await startsWithMagic(file, process.platform))) return { reason: `${file} is not a library of ${process.platform}` };
    }
    return { files };
  } catch (error) {
    return { reason: `its build could not be read (${error.code ?? error.message})` };
  }
}

/** Copy the add-on files into an installed hnswlib-node package, where its loader finds them. */
export async function placeAddon(files, packageDir) {
  const release = path.join(packageDir, ...RELEASE);
  await mkdir(release, { recursive: true });
  for (const file of files) await copyFile(file, path.join(release, path.basename(file)));
}

/**
 * The packages of a lockfile's `packages` map that run an install script
 * (hnswlib-node does, to compile), leaving out those `omitted` says the install
 * leaves out. An install with --ignore-scripts skips exactly these.
 */
export function packagesWithInstallScripts(lockPackages, omitted = () => false) {
  return Object.entries(lockPackages)
    .filter(([key, entry]) => key !== '' && entry.hasInstallScript === true && !omitted(entry))
    .map(([key]) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length));
}
