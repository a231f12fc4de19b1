import { describeGuideSection } from "../helpers/guide-section.js";

/**
 * The guide's balanced workloads example (one van for all stops, then two vans of two stops each
 * under a price per stop of the busiest van).
 */
describeGuideSection({
  title: "the guide's balanced workloads example",
  heading: "## Balanced workloads (extensions)",
  samples: 2,
  unit: "step",
});
