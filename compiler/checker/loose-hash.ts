// A cheap hash for finding names that a generated spelling could merge: names equal in lower case
// once every character but letters and digits is dropped (`PayNow`, `PAY_NOW`, `pay-now`) hash
// alike, which snake_case routes and SCREAMING_SNAKE environment variables need for two names to
// meet. Checks compare the real spellings only on a hit, so most builds make none.

/** The hash of `name` so reduced, continuing `seed` (to hash a pair of names as one). */
export function looseHash(name: string, seed = 0): number {
  let hash = (Math.imul(seed, 31) + 47) | 0; // separates a pair's parts
  for (let i = 0; i < name.length; i++) {
    let code = name.charCodeAt(i);
    if (code >= 65 && code <= 90) code += 32;
    else if (!((code >= 97 && code <= 122) || (code >= 48 && code <= 57))) continue;
    hash = (Math.imul(hash, 31) + code) | 0;
  }
  return hash;
}
