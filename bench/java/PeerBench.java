import com.github.f4b6a3.tsid.TsidCreator;
import com.github.yitter.contract.IdGeneratorOptions;
import com.github.yitter.idgen.YitIdHelper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.UUID;
import java.util.function.LongSupplier;
import me.ahoo.cosid.segment.IdSegmentDistributor;
import me.ahoo.cosid.segment.SegmentChainId;
import me.ahoo.cosid.snowflake.MillisecondSnowflakeId;
import org.idgen.IdGenerator;

/**
 * idgen's Java binding beside the pure-Java id generators a Java team
 * would otherwise pick, in one JVM: JNA on JDK 17, java.lang.foreign on
 * JDK 22+ (the jar picks). Each figure is the median of ROUNDS rounds;
 * within a round the candidates take turns, the order alternating, so
 * noise hits them alike. One thread: the per-call cost.
 */
public final class PeerBench {
    static final int ROUNDS = 9;
    static final int CALLS = 2_000_000;
    static long sink;

    record Candidate(String name, LongSupplier next) {}

    static double nsPerCall(LongSupplier s) {
        long acc = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < CALLS; i++) {
            acc += s.getAsLong();
        }
        long t1 = System.nanoTime();
        sink += acc;
        return (double) (t1 - t0) / CALLS;
    }

    static double[] medians(Candidate... cs) {
        double[][] v = new double[cs.length][ROUNDS];
        for (Candidate c : cs) {
            nsPerCall(c.next); // warm-up: JIT, first runs and segments
        }
        for (int r = 0; r < ROUNDS; r++) {
            for (int k = 0; k < cs.length; k++) {
                int i = r % 2 == 0 ? k : cs.length - 1 - k;
                v[i][r] = nsPerCall(cs[i].next);
            }
        }
        double[] m = new double[cs.length];
        for (int i = 0; i < cs.length; i++) {
            Arrays.sort(v[i]);
            m[i] = v[i][ROUNDS / 2];
        }
        return m;
    }

    static String verdict(boolean ok) {
        return ok ? "PASS" : "FAIL";
    }

    public static void main(String[] args) throws Exception {
        int jdk = Runtime.version().feature();
        String backend = jdk >= 22 ? "java.lang.foreign" : "JNA";
        double target = jdk >= 22 ? 1.0 : 1.5;
        Path dir = Files.createTempDirectory("idgen-peerbench");
        System.out.printf("Java %d, %s (medians of %d rounds of %d calls, one thread)%n", jdk, backend, ROUNDS, CALLS);
        try (IdGenerator runs = IdGenerator.open("layout=time:41,seq:22 worker=0 runs=1024");
             IdGenerator plain = IdGenerator.open("layout=time:41,seq:22 worker=0");
             IdGenerator seg = IdGenerator.open("preset=segment name=peerbench step=auto lease_dir=" + dir);
             IdGenerator uuid = IdGenerator.open("preset=uuidv7")) {
            MillisecondSnowflakeId cosid = new MillisecondSnowflakeId(1577836800000L, 41, 0, 22, 0);
            SegmentChainId chain = new SegmentChainId(new IdSegmentDistributor.Atomic());
            IdGeneratorOptions yo = new IdGeneratorOptions((short) 1);
            yo.WorkerIdBitLength = 1; // its default 6 + 6 caps it at 64 ids/ms; 1 + 21 is its widest
            yo.SeqBitLength = 21;
            YitIdHelper.setIdGenerator(yo);
            double[] m = medians(
                    new Candidate("idgen nextId(), layout=time:41,seq:22 runs=1024", runs::nextId),
                    new Candidate("idgen nextId(), the same without runs", plain::nextId),
                    new Candidate("CosId MillisecondSnowflakeId.generate() (41/0/22)", cosid::generate),
                    new Candidate("tsid-creator TsidCreator.getTsid().toLong()", () -> TsidCreator.getTsid().toLong()),
                    new Candidate("yitter YitIdHelper.nextId()", YitIdHelper::nextId));
            System.out.printf("  %-58s %8.1f ns   %.2fx CosId (target <= %.1fx) %s%n", "idgen nextId(), layout=time:41,seq:22 runs=1024",
                    m[0], m[0] / m[2], target, verdict(m[0] / m[2] <= target));
            System.out.printf("  %-58s %8.1f ns   %.2fx CosId%n", "idgen nextId(), the same without runs", m[1], m[1] / m[2]);
            System.out.printf("  %-58s %8.1f ns%n", "CosId MillisecondSnowflakeId.generate() (41/0/22)", m[2]);
            System.out.printf("  %-58s %8.1f ns%n", "tsid-creator TsidCreator.getTsid().toLong()", m[3]);
            System.out.printf("  %-58s %8.1f ns%n", "yitter YitIdHelper.nextId()", m[4]);
            double[] s = medians(
                    new Candidate("idgen nextId(), preset=segment step=auto (host directory)", seg::nextId),
                    new Candidate("CosId SegmentChainId.generate() (in-memory distributor)", chain::generate));
            System.out.printf("  %-58s %8.1f ns   %.2fx CosId (target <= 1.0x) %s%n", "idgen nextId(), preset=segment step=auto",
                    s[0], s[0] / s[1], verdict(s[0] / s[1] <= 1.0));
            System.out.printf("  %-58s %8.1f ns%n", "CosId SegmentChainId.generate() (in-memory distributor)", s[1]);
            double[] u = medians(
                    new Candidate("idgen nextUuid(), preset=uuidv7", () -> uuid.nextUuid().getLeastSignificantBits()),
                    new Candidate("UUID.randomUUID()", () -> UUID.randomUUID().getLeastSignificantBits()));
            System.out.printf("  %-58s %8.1f ns   %.2fx UUID.randomUUID() (target <= 1.0x) %s%n", "idgen nextUuid(), preset=uuidv7",
                    u[0], u[0] / u[1], verdict(u[0] / u[1] <= 1.0));
            System.out.printf("  %-58s %8.1f ns%n", "UUID.randomUUID()", u[1]);
        }
        System.out.println("  (checksum " + (sink & 1) + ")");
    }
}
