/**
 * The label-budget planner (`ragjudge plan`) and the sampling designs the
 * gate accepts: how many labels a rubric needs, stratified Neyman draws, and
 * kappa under a design.
 */
export { designKappa, kappaInfluence, unitKappaVariance, type DesignKappa, type DesignPair, type CellShares } from "./kappa-linear.js";
export { kappaLabelsNeeded, ppiLabelsNeeded, kappaWidthLabels, type KappaNeed, type WidthNeed, type KappaNeedInput, type WidthNeedInput } from "./sample-size.js";
export { simulateGate, simulatedLabelsNeeded, expectedGateLabels, type SimulatedGate } from "./simulate.js";
export { neymanAllocation, chooseStrata, stratumOf, confidenceBand, type StratumSpec, type StrataLevel, type StratifiableItem } from "./strata.js";
export { DESIGNS, accepts, designOf, renderDesignsMarkdown, type DesignRecord, type EstimatorId } from "./designs.js";
export { designRefusal, stratifiedDrawBody, uniformReplay, type StratifiedItem, type StratifiedSpec } from "./stratified-draw.js";
export { planGroups, planGroup, type GroupPlan, type PlanOptions } from "./plan.js";
export { budgetShares, splitBudget, type BudgetShare } from "./budget.js";
