import { describeGuideSection } from "../helpers/guide-section.js";

/** The guide's examples of travel times, profiles, costs per hour, open routes, breaks and several windows. */
describeGuideSection({
  title: "the guide's travel times, profiles, costs per hour, open routes, breaks and several windows",
  heading: "## Travel times, profiles, cost per hour, several windows, breaks and open routes (extensions)",
  samples: 7,
  unit: "example",
});
