import { expect } from "chai";

/** The pickup-and-delivery fields of a request (constraints.md, second table), as sent. */
export interface LoadFieldsOfRequest {
  node_demands: number[];
  vehicles_capacity: number[];
  node_pickups?: number[];
  pickups_after_deliveries?: boolean;
  shipments?: { pickup: number; delivery: number; amount: number }[];
  node_extra_demands?: number[][];
  vehicles_extra_capacity?: number[][];
}

interface LoadsOfResult {
  routes: Record<string, number[]>;
  loads_on_board?: Record<string, number[]>;
  extra_loads_on_board?: Record<string, number[][]>;
}

/** Whether the request uses any of the fields (then the result must carry loads_on_board). */
export function usesLoadFields(r: LoadFieldsOfRequest): boolean {
  return (
    r.node_pickups !== undefined ||
    r.pickups_after_deliveries === true ||
    (r.shipments?.length ?? 0) > 0 ||
    r.node_extra_demands !== undefined
  );
}

/**
 * An independent, deliberately naive check of the load rules on a result, recomputed from the
 * request alone: the load on board after every node (deliveries left + pickups made + shipment
 * amounts between their stops) equals `loads_on_board` and never exceeds the capacity; under
 * pickups_after_deliveries no delivery follows a pickup; each shipment's stops are on one route,
 * pickup first; each extra dimension's delivered total fits, and equals `extra_loads_on_board`.
 * A request without the fields must get neither result field.
 */
export function checkLoadRules(request: LoadFieldsOfRequest, result: LoadsOfResult): void {
  if (!usesLoadFields(request)) {
    expect(result, "no load fields in the request, none in the result").not.to.have.any.keys("loads_on_board", "extra_loads_on_board");
    return;
  }
  const demand = (node: number) => request.node_demands[node] ?? 0;
  const pickup = (node: number) => request.node_pickups?.[node] ?? 0;
  const shipmentOf = new Map<number, { k: number; role: "pickup" | "delivery"; amount: number }>();
  (request.shipments ?? []).forEach((s, k) => {
    shipmentOf.set(s.pickup, { k, role: "pickup", amount: s.amount });
    shipmentOf.set(s.delivery, { k, role: "delivery", amount: s.amount });
  });
  const servedBy = new Map<number, { label: string; position: number }>();
  const dims = request.node_extra_demands?.[0]?.length ?? 0;
  expect(result.loads_on_board, "loads_on_board present").to.be.an("object");
  expect(Object.keys(result.loads_on_board!)).to.deep.equal(Object.keys(result.routes));
  if (dims > 0) expect(Object.keys(result.extra_loads_on_board ?? {})).to.deep.equal(Object.keys(result.routes));
  else expect(result).not.to.have.property("extra_loads_on_board");

  for (const [label, route] of Object.entries(result.routes)) {
    const v = Number(/^Vehicle (\d+)$/.exec(label)![1]);
    const inner = route.slice(1, -1);
    let onBoard = inner.reduce((sum, node) => sum + demand(node), 0);
    const extra = Array.from({ length: dims }, (_, k) => inner.reduce((sum, node) => sum + request.node_extra_demands![node]![k]!, 0));
    const expected = [onBoard];
    const expectedExtra = [extra.slice()];
    let pickedUp = false;
    route.slice(1).forEach((node, i) => {
      const s = shipmentOf.get(node);
      onBoard += pickup(node) - demand(node) + (s ? (s.role === "pickup" ? s.amount : -s.amount) : 0);
      for (let k = 0; k < dims; k++) extra[k]! -= request.node_extra_demands![node]![k]!;
      expected.push(onBoard);
      expectedExtra.push(extra.slice());
      if (request.pickups_after_deliveries && i < inner.length) {
        if (demand(node) > 0)
          expect(pickedUp, `${label}: delivery at node ${node} after a pickup (pickups_after_deliveries)`).to.equal(false);
        if (pickup(node) > 0) pickedUp = true;
      }
      if (i < inner.length) servedBy.set(node, { label, position: i });
    });
    const capacity = request.vehicles_capacity[v]!;
    expected.forEach((load, i) =>
      expect(load, `${label}: on board after its ${i}-th node within capacity ${capacity}`).to.be.at.most(capacity + 1e-9),
    );
    expect(result.loads_on_board![label]!.length).to.equal(expected.length);
    result.loads_on_board![label]!.forEach((load, i) => expect(load, `${label}: loads_on_board[${i}]`).to.be.closeTo(expected[i]!, 1e-6));
    for (let k = 0; k < dims; k++) {
      const cap = request.vehicles_extra_capacity![v]![k]!;
      expect(expectedExtra[0]![k]!, `${label}: extra dimension ${k + 1} within capacity ${cap}`).to.be.at.most(cap + 1e-9);
    }
    if (dims > 0) {
      const got = result.extra_loads_on_board![label]!;
      expect(got.length).to.equal(expectedExtra.length);
      got.forEach((row, i) =>
        row.forEach((x, k) => expect(x, `${label}: extra_loads_on_board[${i}][${k}]`).to.be.closeTo(expectedExtra[i]![k]!, 1e-6)),
      );
    }
  }
  (request.shipments ?? []).forEach((s, k) => {
    const p = servedBy.get(s.pickup);
    const d = servedBy.get(s.delivery);
    expect(p?.label, `shipment ${k}: both stops on one route`).to.equal(d?.label);
    if (p && d) expect(p.position, `shipment ${k}: pickup before delivery`).to.be.below(d.position);
  });
}
