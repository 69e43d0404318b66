package dev.waldo.decisions;

import java.nio.charset.StandardCharsets;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

/**
 * The register's wire format, one short text each way: a proposal is {@code C} (commit) or
 * {@code B} (back out) followed by the attempt's name; an answer is {@code C} or {@code B}.
 */
record Proposal(String attempt, boolean commit) {
    Message toMessage() {
        return Message.valueOf((commit ? "C" : "B") + attempt);
    }

    static Proposal decode(ByteString data) {
        String text = data.toString(StandardCharsets.UTF_8);
        if (text.length() < 2 || (text.charAt(0) != 'C' && text.charAt(0) != 'B')) {
            throw new IllegalArgumentException("not a decision proposal: '" + text + "'");
        }
        return new Proposal(text.substring(1), text.charAt(0) == 'C');
    }

    static Message answer(boolean committed) {
        return Message.valueOf(committed ? "C" : "B");
    }

    static boolean committed(Message answer) {
        String text = answer.getContent().toString(StandardCharsets.UTF_8);
        return switch (text) {
            case "C" -> true;
            case "B" -> false;
            default -> throw new IllegalStateException("the decision register answered '" + text + "'");
        };
    }
}
