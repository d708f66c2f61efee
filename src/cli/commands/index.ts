import type { Command } from "commander";

/** Each command module registers itself on the program; main.ts wires them in this order. */
export type Register = (program: Command) => void;

export const commands: Register[] = [];
