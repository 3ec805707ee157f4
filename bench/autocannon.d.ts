// autocannon ships no types; the bench uses a few fields of its result (see load() in run.ts).
declare module 'autocannon';
