export * from './messages.js';
export * from './constants.js';
export * from './common.js';
export * from './auth.js';
export * from './jobs.js';
export * from './format.js';
export * from './catalogue.js';
export * from './commerce.js';
