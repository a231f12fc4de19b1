import { describeGuideSection } from "../helpers/guide-section.js";

/**
 * The guide's visit rules example: incompatible goods on separate vans, a same-vehicle group on
 * one, and a shipment's ride before and under its limit.
 */
describeGuideSection({
  title: "the guide's ride-time, incompatible goods and same-vehicle group example",
  heading: "## Ride-time limits, incompatible goods and stops that go together (extensions)",
  samples: 4,
  unit: "step",
});
