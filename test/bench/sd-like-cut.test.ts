import { expect } from "chai";
import { cutFleet, keptVehicles } from "../../bench/sd-like-cut.js";
import { sdLike } from "../../bench/sd-like.js";

describe("bench/sd-like-cut.ts: full-fleet skills instances", () => {
  it("keeps the vehicles with a route, less the ones serving the fewest customers", () => {
    const routes = [[1, 2], [], [3], [4, 5, 6], [], [7]];
    expect(keptVehicles(routes, 0)).to.deep.equal([0, 2, 3, 5]);
    // Two one-customer routes: the later vehicle goes first.
    expect(keptVehicles(routes, 1)).to.deep.equal([0, 2, 3]);
    expect(keptVehicles(routes, 2)).to.deep.equal([0, 3]);
  });

  it("cuts every per-vehicle field alike and leaves the nodes as they were", () => {
    const { request } = sdLike(0, 10500);
    const keep = [0, 3, 5];
    const cut = cutFleet(request, keep, "cut") as unknown as Record<string, unknown[]>;
    const full = request as unknown as Record<string, unknown[]>;
    expect(cut.vehicle_num).to.equal(3);
    for (const key of ["vehicles_capacity", "vehicle_skills", "vehicle_speeds", "start_nodes", "end_nodes"])
      expect(cut[key], key).to.deep.equal(keep.map((v) => full[key]![v]));
    expect(cut.node_skills).to.deep.equal(full.node_skills);
    expect(cut.node_demands).to.deep.equal(full.node_demands);
  });
});
