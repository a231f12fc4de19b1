import { describeGuideSection } from "../helpers/guide-section.js";

/** The guide's examples of optional stops, skills, shifts and route limits. */
describeGuideSection({
  title: "the guide's optional stops, skills, shifts and route limits",
  heading: "## Optional stops, skills, shifts and route limits (extensions)",
  samples: 7,
  unit: "example",
});
