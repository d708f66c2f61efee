import type { Command } from "commander";
import { registerReview } from "./review.js";
import { registerSample } from "./sample.js";
import { registerRetrieval } from "./retrieval.js";
import { registerValidate } from "./validate.js";
import { registerJudge } from "./judge.js";
import { registerCalibrate } from "./calibrate.js";
import { registerLabels } from "./labels.js";
import { registerBatch } from "./batch.js";
import { registerRun } from "./run.js";
import { registerCompare } from "./compare.js";
import { registerInit } from "./init.js";
import { registerImport } from "./import.js";
import { registerPlan } from "./plan.js";

/** Each command module registers itself on the program; main.ts wires them in this order. */
export type Register = (program: Command) => void;

export const commands: Register[] = [registerInit, registerImport, registerValidate, registerRetrieval, registerJudge, registerSample, registerReview, registerCalibrate, registerPlan, registerLabels, registerBatch, registerRun, registerCompare];
