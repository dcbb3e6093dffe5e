// Types of native-addon.mjs, for the tests that import it (test/e2e/package.test.ts).

export declare const ADDON_PACKAGE: string;

export declare function builtAddon(root: string, version: string): Promise<{ files: string[]; reason?: undefined } | { files?: undefined; reason: string }>;

export declare function placeAddon(files: string[], packageDir: string): Promise<void>;

export declare function packagesWithInstallScripts(
  lockPackages: Record<string, { hasInstallScript?: boolean; dev?: boolean; peer?: boolean }>,
  omitted?: (entry: { hasInstallScript?: boolean; dev?: boolean; peer?: boolean }) => boolean,
): string[];
