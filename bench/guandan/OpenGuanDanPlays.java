// Times OpenGuanDan's Java move generator (com.guandan.engine.ActionEngine, from a
// checkout's guandan-java/guandan-java-action.jar) on positions read from stdin, for
// bench/guandan/plays.py, which compiles this file against that jar and runs it.
//
// Input, one position a line, tab-separated: "first" or "second", the hand as the
// engine's 15 rank masks (comma-separated), the number of wild hearts, the level rank,
// and for "second" the play to beat: its type, its rank and its cards (space-separated).
// Output, one line per mode: mode, calls, entries listed in all, the distinct plays
// among them (type, rank and the cards in any order: a list may hold a play twice, its
// cards in two orders; the pass entry of a follow not counted), and in microseconds the
// mean CPU time a call (the median of REPEAT timed passes over the positions, after
// WARMUP untimed ones, so the JIT has compiled the generator), then the median and the
// 99th percentile of single calls (wall clock, one pass).
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;

import com.guandan.engine.ActionEngine;

public class OpenGuanDanPlays {
    static final class Position {
        int[] cards;
        int hearts;
        String level;
        List<Object> greater;  // null when leading
    }

    public static void main(String[] args) throws Exception {
        int repeat = Integer.parseInt(args[0]);
        int warmup = Integer.parseInt(args[1]);
        List<Position> first = new ArrayList<>();
        List<Position> second = new ArrayList<>();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line; (line = in.readLine()) != null; ) {
            String[] f = line.split("\t", -1);
            Position p = new Position();
            p.cards = Arrays.stream(f[1].split(",")).mapToInt(Integer::parseInt).toArray();
            p.hearts = Integer.parseInt(f[2]);
            p.level = f[3];
            if (f[0].equals("second")) {
                p.greater = Arrays.asList(f[4], f[5], new ArrayList<>(Arrays.asList(f[6].split(" "))));
                second.add(p);
            } else {
                first.add(p);
            }
        }
        ActionEngine engine = new ActionEngine();
        report("first", first, engine, repeat, warmup);
        report("second", second, engine, repeat, warmup);
    }

    static List<List<Object>> call(ActionEngine engine, Position p) {
        return p.greater == null
                ? engine.getFirstActions(p.cards, p.hearts, p.level)
                : engine.getSecondActions(p.cards, p.hearts, p.level, p.greater);
    }

    static int distinct(List<List<Object>> actions) {
        HashSet<List<Object>> seen = new HashSet<>();
        for (List<Object> a : actions) {
            if (!(a.get(2) instanceof List)) {
                continue;  // the pass entry: ["PASS", "PASS", "PASS"]
            }
            List<String> cards = new ArrayList<>();
            for (Object c : (List<?>) a.get(2)) {
                cards.add(String.valueOf(c));
            }
            cards.sort(null);
            seen.add(Arrays.asList(a.get(0), a.get(1), cards));
        }
        return seen.size();
    }

    static void report(String mode, List<Position> positions, ActionEngine engine, int repeat, int warmup) {
        if (positions.isEmpty()) {
            return;
        }
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        long plays = 0;
        long distinct = 0;
        for (int w = 0; w < warmup; w++) {
            for (Position p : positions) {
                call(engine, p);
            }
        }
        double[] means = new double[repeat];
        for (int r = 0; r < repeat; r++) {
            long t0 = cpu.getCurrentThreadCpuTime();
            for (Position p : positions) {
                call(engine, p);
            }
            means[r] = (cpu.getCurrentThreadCpuTime() - t0) / 1e3 / positions.size();
        }
        double[] singles = new double[positions.size()];
        for (int i = 0; i < singles.length; i++) {
            long t0 = System.nanoTime();
            List<List<Object>> actions = call(engine, positions.get(i));
            singles[i] = (System.nanoTime() - t0) / 1e3;
            plays += actions.size();
            distinct += distinct(actions);
        }
        Arrays.sort(means);
        Arrays.sort(singles);
        double p99 = singles[Math.min(singles.length - 1, (int) Math.ceil(0.99 * singles.length) - 1)];
        System.out.printf("%s\t%d\t%d\t%d\t%.4f\t%.4f\t%.4f%n", mode, positions.size(), plays, distinct,
                          means[repeat / 2], singles[singles.length / 2], p99);
    }
}
