/**
 * The calibration gate: agreement statistics, labels, calibration records,
 * the trust gate and corrected pass rates. Other modules import from here.
 */
export * from "./stats/index.js";
export * from "./keys.js";
export * from "./labels.js";
export * from "./labels-csv.js";
export * from "./verdicts.js";
export * from "./pairing.js";
export * from "./figures.js";
export * from "./humans.js";
export * from "./basis.js";
export * from "./corrected.js";
export * from "./confidence.js";
export * from "./confidence-render.js";
export * from "./record.js";
export * from "./gate.js";
export * from "./calibrate.js";
export * from "./assess.js";
export * from "./render.js";
export * from "./output.js";
export * from "./uninformative.js";
export * from "./draws.js";
export * from "./trust.js";
export * from "./trust-rules.js";
export * from "./wording.js";
export * from "./plan/index.js";
