// The vendor bundle: graphology (the graph), sigma (WebGL drawing, with
// its cheaper line and point programs for large graphs) and ForceAtlas2
// (layout, in a web worker), as one global, VG.
import Graph from "graphology";
import Sigma from "sigma";
import { EdgeLineProgram, NodePointProgram } from "sigma/rendering";
import FA2Layout from "graphology-layout-forceatlas2/worker";
import forceAtlas2 from "graphology-layout-forceatlas2";

window.VG = { Graph, Sigma, FA2Layout, forceAtlas2, EdgeLineProgram, NodePointProgram };
