export { type AppOptions, buildApp } from './app.js';
export { AppError, ERROR_CODES, type ErrorCode } from './errors.js';
export { type RunningServer, startServer } from './server.js';
