/**
 * Retrieval diagnostics (issue 3): pool recall, the precision ceiling, the
 * miss analysis with seed 000's failure taxonomy, its summary and rendering.
 * Library code only; `ragjudge retrieval --misses` calls it.
 */
export * from "./taxonomy.js";
export * from "./stages.js";
export * from "./kinds.js";
export * from "./pool.js";
export * from "./precision.js";
export * from "./text.js";
export * from "./misses.js";
export * from "./summary.js";
export * from "./diagnose.js";
export * from "./table.js";
export * from "./render.js";
export * from "./ambiguity.js";
export * from "./section.js";
