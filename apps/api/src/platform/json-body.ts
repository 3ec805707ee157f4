/**
 * Why the JSON parser refused a body that is valid JSON: it uses the key `__proto__`, or a `constructor`
 * holding a `prototype` (prototype poisoning, which the parser refuses). Fastify answered both with
 * "Body is not valid JSON", which sent the client looking for a syntax error that is not there.
 * Null when the text is not valid JSON either, or has neither key: the parser's own error stands.
 */
export function poisonedKeyError(text: string): Error | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const refuse = (key: string) => Object.assign(new Error(`the body may not use the key ${key}`), { statusCode: 400 });
  // A loop, not recursion: a body of deeply nested arrays must not exhaust the stack.
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Object.hasOwn(node, '__proto__')) return refuse('__proto__');
    const ctor = Object.hasOwn(node, 'constructor') ? (node as { constructor: unknown }).constructor : null;
    if (ctor !== null && typeof ctor === 'object' && Object.hasOwn(ctor, 'prototype'))
      return refuse('constructor.prototype');
    for (const child of Object.values(node)) pending.push(child);
  }
  return null;
}
