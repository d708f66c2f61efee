/**
 * The seeded streams and draws of sampling live with the gate that replays
 * them (src/calibration/random.ts): a stratified manifest is checked by
 * drawing it again from its seed.
 */
export { sampleWithoutReplacement, shuffle, streamFor } from "../calibration/random.js";
