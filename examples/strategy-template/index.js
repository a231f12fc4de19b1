// The module the service loads (STRATEGY_MODULES): its default export is the strategy (or an array
// of strategies). Every other export is ignored.
import { nearestNeighbour } from "./nearest-neighbour.js";

export default nearestNeighbour;
