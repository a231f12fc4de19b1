import { describeGuideSection } from "../helpers/guide-section.js";

/** The guide's examples of rush hours (time_dependent_durations). */
describeGuideSection({
  title: "the guide's traffic by time of day",
  heading: "## Traffic by time of day (extension)",
  samples: 2,
  unit: "example",
});
