package dev.waldo.check;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;

/**
 * The transactions of a history as nodes, with write-write, write-read,
 * read-write (anti-dependency) and real-time edges, and the cycle search
 * over them. A strictly serializable history has no cycle; each strongly
 * connected component that has one is reported once, as the most severe
 * anomaly it contains (G0, then G1c, G-single, G2, then the same with
 * real-time edges).
 */
final class DependencyGraph {
    /** Edge types, as bits so that a search can allow several. */
    static final int WW = 1;
    static final int WR = 2;
    static final int RW = 4;
    static final int RT = 8;
    /** How many anti-dependency edges of one component are tried as the single one of a G-single cycle. */
    private static final int G_SINGLE_TRIES = 200;

    /** One edge, with the key that explains it (null for real-time order). */
    record Edge(int to, int type, String key) {
    }

    private final List<Txn> nodes;
    private final List<List<Edge>> out = new ArrayList<>();
    private long edgeCount;
    /** Breadth-first search state, reused by every search: a node is visited when its stamp is the search's. */
    private int[] visitedIn;
    private int[] viaNode;
    private int[] viaEdge;
    private int search;

    DependencyGraph(List<Txn> nodes) {
        this.nodes = nodes;
        for (int i = 0; i < nodes.size(); i++) {
            out.add(new ArrayList<>());
        }
    }

    void add(int from, int to, int type, String key) {
        if (from != to) {
            out.get(from).add(new Edge(to, type, key));
            edgeCount++;
        }
    }

    long edgeCount() {
        return edgeCount;
    }

    /** One anomaly per strongly connected component that holds a cycle. */
    List<Anomaly> cycles() {
        List<Anomaly> found = new ArrayList<>();
        for (int[] component : components(allNodes(), WW | WR | RW | RT)) {
            found.add(classify(component));
        }
        return found;
    }

    private int[] allNodes() {
        int[] all = new int[nodes.size()];
        Arrays.setAll(all, i -> i);
        return all;
    }

    /** The most severe anomaly whose cycle lies in {@code component}; one always exists there. */
    private Anomaly classify(int[] component) {
        String[] names = {"G0", "G1c", "G-single", "G2"};
        for (int realtime : new int[] {0, RT}) {
            String suffix = realtime == 0 ? "" : "-realtime";
            int[][] ladders = {{WW | realtime}, {WW | WR | realtime}, null, {WW | WR | RW | realtime}};
            for (int step = 0; step < names.length; step++) {
                List<int[]> cycle = step == 2 ? singleAntiDependencyCycle(component, WW | WR | realtime)
                        : anyCycle(component, ladders[step][0]);
                if (cycle != null) {
                    return describe(names[step] + suffix, cycle);
                }
            }
        }
        throw new IllegalStateException("a strongly connected component without a cycle");
    }

    /** A cycle using only edges of {@code allowed} inside {@code component}, or null. */
    private List<int[]> anyCycle(int[] component, int allowed) {
        List<int[]> inner = components(component, allowed);
        if (inner.isEmpty()) {
            return null;
        }
        int[] scc = inner.get(0);
        int start = scc[0];
        List<Edge> edges = out.get(start);
        for (int e = 0; e < edges.size(); e++) {
            Edge edge = edges.get(e);
            if ((edge.type & allowed) != 0 && contains(scc, edge.to)) {
                List<int[]> path = path(edge.to, start, scc, allowed);
                if (path != null) {
                    path.add(0, new int[] {start, e});
                    return path;
                }
            }
        }
        return null;
    }

    /** A cycle with exactly one anti-dependency edge and otherwise only {@code rest}, or null. */
    private List<int[]> singleAntiDependencyCycle(int[] component, int rest) {
        int tries = 0;
        for (int from : component) {
            List<Edge> edges = out.get(from);
            for (int e = 0; e < edges.size() && tries < G_SINGLE_TRIES; e++) {
                Edge edge = edges.get(e);
                if (edge.type != RW || !contains(component, edge.to)) {
                    continue;
                }
                tries++;
                List<int[]> path = path(edge.to, from, component, rest);
                if (path != null) {
                    path.add(0, new int[] {from, e});
                    return path;
                }
            }
        }
        return null;
    }

    /** Breadth-first: the edges (node, edge index) of a shortest path from {@code from} to {@code to}, or null. */
    private List<int[]> path(int from, int to, int[] within, int allowed) {
        if (from == to) {
            return new ArrayList<>();
        }
        if (visitedIn == null) {
            visitedIn = new int[nodes.size()];
            viaNode = new int[nodes.size()];
            viaEdge = new int[nodes.size()];
        }
        search++;
        visitedIn[from] = search;
        Deque<Integer> queue = new ArrayDeque<>(List.of(from));
        while (!queue.isEmpty()) {
            int node = queue.poll();
            List<Edge> edges = out.get(node);
            for (int e = 0; e < edges.size(); e++) {
                Edge edge = edges.get(e);
                if ((edge.type & allowed) == 0 || visitedIn[edge.to] == search || !contains(within, edge.to)) {
                    continue;
                }
                visitedIn[edge.to] = search;
                viaNode[edge.to] = node;
                viaEdge[edge.to] = e;
                if (edge.to == to) {
                    return unwind(from, to);
                }
                queue.add(edge.to);
            }
        }
        return null;
    }

    private List<int[]> unwind(int from, int to) {
        List<int[]> path = new ArrayList<>();
        for (int node = to; node != from; node = viaNode[node]) {
            path.add(0, new int[] {viaNode[node], viaEdge[node]});
        }
        return path;
    }

    private static boolean contains(int[] sorted, int node) {
        return Arrays.binarySearch(sorted, node) >= 0;
    }

    private Anomaly describe(String type, List<int[]> cycle) {
        StringBuilder text = new StringBuilder("cycle ");
        List<Integer> txns = new ArrayList<>();
        for (int[] step : cycle) {
            Edge edge = out.get(step[0]).get(step[1]);
            txns.add(nodes.get(step[0]).id());
            text.append('T').append(nodes.get(step[0]).id()).append(" -").append(label(edge)).append("-> ");
        }
        text.append('T').append(nodes.get(cycle.get(0)[0]).id());
        return new Anomaly(type, text.toString(), txns);
    }

    private static String label(Edge edge) {
        return switch (edge.type) {
            case WW -> "ww " + edge.key;
            case WR -> "wr " + edge.key;
            case RW -> "rw " + edge.key;
            default -> "realtime";
        };
    }

    /**
     * Tarjan's strongly connected components of the subgraph on {@code within}
     * (sorted) using edges of {@code allowed}, iteratively (histories have
     * 100,000s of transactions); only components with more than one node, each sorted.
     */
    private List<int[]> components(int[] within, int allowed) {
        int n = nodes.size();
        int[] index = new int[n];
        int[] low = new int[n];
        int[] edgeAt = new int[n];
        boolean[] onStack = new boolean[n];
        Arrays.fill(index, -1);
        Deque<Integer> stack = new ArrayDeque<>();
        Deque<Integer> calls = new ArrayDeque<>();
        List<int[]> found = new ArrayList<>();
        int counter = 0;
        for (int root : within) {
            if (index[root] != -1) {
                continue;
            }
            calls.push(root);
            index[root] = low[root] = counter++;
            stack.push(root);
            onStack[root] = true;
            while (!calls.isEmpty()) {
                int node = calls.peek();
                List<Edge> edges = out.get(node);
                if (edgeAt[node] < edges.size()) {
                    Edge edge = edges.get(edgeAt[node]++);
                    if ((edge.type & allowed) == 0 || !contains(within, edge.to)) {
                        continue;
                    }
                    if (index[edge.to] == -1) {
                        index[edge.to] = low[edge.to] = counter++;
                        stack.push(edge.to);
                        onStack[edge.to] = true;
                        calls.push(edge.to);
                    } else if (onStack[edge.to]) {
                        low[node] = Math.min(low[node], index[edge.to]);
                    }
                    continue;
                }
                calls.pop();
                if (!calls.isEmpty()) {
                    low[calls.peek()] = Math.min(low[calls.peek()], low[node]);
                }
                if (low[node] == index[node]) {
                    popComponent(stack, onStack, node, found);
                }
            }
        }
        return found;
    }

    private static void popComponent(Deque<Integer> stack, boolean[] onStack, int root, List<int[]> found) {
        List<Integer> members = new ArrayList<>();
        int member;
        do {
            member = stack.pop();
            onStack[member] = false;
            members.add(member);
        } while (member != root);
        if (members.size() > 1) {
            found.add(members.stream().mapToInt(Integer::intValue).sorted().toArray());
        }
    }
}
