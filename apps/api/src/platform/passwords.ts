import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id with the OWASP parameters set explicitly: 19 MiB, 2 iterations, 1 lane.
 * @node-rs/argon2 hashes on libuv's thread pool, off the event loop.
 */
const ARGON2_OPTIONS = {
  algorithm: 2, // Algorithm.Argon2id (a const enum, not importable under isolatedModules)
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

export const hashPassword = (password: string) => hash(password, ARGON2_OPTIONS);

// A real hash of a random password: unknown accounts pay the same verification cost as known ones.
let dummy: Promise<string> | undefined;
const dummyHash = () => (dummy ??= hash(crypto.randomUUID(), ARGON2_OPTIONS));

export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  const target = storedHash ?? (await dummyHash());
  try {
    const ok = await verify(target, password);
    return ok && storedHash !== undefined;
  } catch {
    return false;
  }
}
