/**
 * A seeded pseudo-random number generator, for tests and benchmarks that
 * draw their data: the same seed gives the same sequence on every machine,
 * so a failing case can be replayed and a generated vault is byte-identical
 * from run to run.
 */

export type Rng = () => number;

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** A seeded PRNG (sfc32, seeded through splitmix32) returning floats in [0, 1). */
export function createRng(seed: number): Rng {
  const init = splitmix32(Math.floor(seed) >>> 0);
  let a = init();
  let b = init();
  let c = init();
  let d = init();
  const next = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) next();
  return () => next() / 4294967296;
}
