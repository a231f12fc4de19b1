import { expect } from "chai";
import { BENCHMARK_FIXTURES, benchmarkFolder, benchmarkRequest, fixtureDifferences } from "../helpers/benchmark-fixtures.js";

/**
 * The strategy tests read public instances from test/fixtures/benchmarks/, not from the benchmark
 * folder, so they pass in a fresh clone; here the fixtures are checked to be those instances.
 */
describe("the benchmark instances carried in test/fixtures/benchmarks/", function () {
  this.timeout(60_000);

  it("rebuild a full distance matrix from the coordinates they carry", () => {
    const c101 = benchmarkRequest("Solomon/C101");
    expect(c101.distance_matrix).to.have.length(101);
    // Solomon's convention: Euclidean distance truncated to one decimal (depot (40,50) to customer 1 (45,68)).
    expect(c101.distance_matrix![0]![1]).to.equal(18.6);
    expect(c101).to.not.have.property("distance_from");
  });

  it("are the benchmark folder's requests, field for field (when the folder is present)", function () {
    const dir = benchmarkFolder();
    if (!dir) {
      const how = "set BENCH_DIR or place ../shared/benchmarks beside the repository to check the fixtures";
      console.log(`      (skipped: no benchmark folder; ${how})`);
      this.skip();
    }
    expect(BENCHMARK_FIXTURES.flatMap((name) => fixtureDifferences(dir, name))).to.deep.equal([]);
  });
});
