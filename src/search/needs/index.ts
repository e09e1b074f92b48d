export { buildNeedIndex } from './build.js';
export { inferTypes, NEED_TUNING, type NeedTuning, type TypeCandidate } from './infer.js';
