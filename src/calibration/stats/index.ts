/** Agreement statistics: pure functions, each with its formula and source in its doc comment. */
export * from "./types.js";
export * from "./special.js";
export * from "./confusion.js";
export * from "./kappa.js";
export * from "./paradox.js";
export * from "./fleiss.js";
export * from "./krippendorff.js";
export * from "./bootstrap.js";
export * from "./rogan-gladen.js";
export * from "./ppi.js";
export * from "./mcnemar.js";
export * from "./kappa-bootstrap.js";
export * from "./wilson.js";
export * from "./kappa-gof.js";
export * from "./fisher.js";
export * from "./registry.js";
