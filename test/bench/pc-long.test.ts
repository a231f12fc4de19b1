import { expect } from "chai";
import { pcLongLike } from "../../bench/pc-like.js";

/**
 * The pc-long family stands for PCVRPTW's long-route instances (R2_10_2, RC2_10_2): 1,000 optional
 * customers with prizes, R2 and RC2 in turn, and a fleet just large enough to carry every demand,
 * as the files have it, rather than the GH files' 250 vehicles.
 */
describe("bench: pc-long, the long-route prize-collecting family", () => {
  it("gives requests of 1,000 optional customers, R2 then RC2, on the fewest vehicles that carry every demand plus one", () => {
    for (const [index, kind] of [
      [0, "R2"],
      [1, "RC2"],
    ] as const) {
      const { name, request } = pcLongLike(index, 2027);
      expect(name).to.match(new RegExp(`^pcl-gl\\d+-${kind}-n1000-d\\d+$`));
      expect(request.node_num).to.equal(1001);
      const penalties = request.node_skip_penalties!;
      expect(penalties[0]).to.equal(null);
      expect(penalties.slice(1).every((p) => typeof p === "number" && p >= 1)).to.equal(true);
      const demand = request.node_demands!.reduce((sum, q) => sum + q, 0);
      const capacity = request.vehicles_capacity![0]!;
      expect(request.vehicle_num).to.equal(Math.ceil(demand / capacity) + 1);
      for (const perVehicle of [request.start_nodes, request.end_nodes, request.vehicles_capacity!, request.vehicle_speeds!])
        expect(perVehicle).to.have.length(request.vehicle_num);
      expect(capacity).to.equal(1000);
    }
  });

  it("draws smaller instances of the same kind on request, on their own fewest vehicles plus one", () => {
    const { name, request } = pcLongLike(1, 2027, 500);
    expect(name).to.match(/^pcl-gl\d+-RC2-n500-d\d+$/);
    expect(request.node_num).to.equal(501);
    const demand = request.node_demands!.reduce((sum, q) => sum + q, 0);
    expect(request.vehicle_num).to.equal(Math.ceil(demand / request.vehicles_capacity![0]!) + 1);
    expect(request.vehicle_num).to.be.below(pcLongLike(1, 2027).request.vehicle_num);
  });
});
