package dev.waldo.decisions;

import java.nio.charset.StandardCharsets;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

/**
 * The register's wire format, one short text each way. A proposal is {@code S<stamp>:} (commit,
 * with the commit's stamp) or {@code B} (back out) followed by the attempt's name; an answer is
 * {@code S<stamp>} or {@code B}. A {@code C} proposal (a commit with no stamp), which replicas'
 * logs written before commits carried stamps hold, settles as a commit of stamp {@link
 * #UNKNOWN_STAMP}.
 *
 * @param commitStamp the commit's stamp, or 0 to back out
 */
record Proposal(String attempt, long commitStamp) {
    /**
     * The stamp a commit logged without one settles with: above every real stamp, so a
     * participant that learns it installs the commit's shared appends after every other it holds.
     */
    static final long UNKNOWN_STAMP = Long.MAX_VALUE;

    Proposal {
        if (commitStamp < 0) {
            throw new IllegalArgumentException("a commit's stamp is above 0 (0 backs out), not " + commitStamp);
        }
    }

    Message toMessage() {
        return Message.valueOf(encode(commitStamp) + (commitStamp != 0 ? ":" : "") + attempt);
    }

    static Proposal decode(ByteString data) {
        String text = data.toString(StandardCharsets.UTF_8);
        if (text.length() >= 2 && text.charAt(0) == 'B') {
            return new Proposal(text.substring(1), 0);
        }
        if (text.length() >= 2 && text.charAt(0) == 'C') {
            return new Proposal(text.substring(1), UNKNOWN_STAMP);
        }
        int colon = text.indexOf(':');
        if (text.startsWith("S") && colon > 1 && colon < text.length() - 1) {
            try {
                return new Proposal(text.substring(colon + 1), Long.parseLong(text.substring(1, colon)));
            } catch (NumberFormatException notAStamp) {
                // reported below
            }
        }
        throw new IllegalArgumentException("not a decision proposal: '" + text + "'");
    }

    static Message answer(long commitStamp) {
        return Message.valueOf(encode(commitStamp));
    }

    /** The settled outcome an answer carries: the commit's stamp, or 0 if backed out. */
    static long settled(Message answer) {
        String text = answer.getContent().toString(StandardCharsets.UTF_8);
        if (text.equals("B")) {
            return 0;
        }
        if (text.length() > 1 && text.charAt(0) == 'S') {
            try {
                return Long.parseLong(text.substring(1));
            } catch (NumberFormatException notAStamp) {
                // reported below
            }
        }
        throw new IllegalStateException("the decision register answered '" + text + "'");
    }

    private static String encode(long commitStamp) {
        return commitStamp != 0 ? "S" + commitStamp : "B";
    }
}
