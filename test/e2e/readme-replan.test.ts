import { describeGuideSection } from "../helpers/guide-section.js";

/**
 * The guide's re-planning loop (solve, evaluate a hand-edited plan, lock the served stops and add
 * an order, solve again from the previous answer, evaluate that).
 */
describeGuideSection({
  title: "the guide's re-planning loop",
  heading: "## Plans that change during the day (extensions)",
  samples: 4,
  unit: "step",
});
