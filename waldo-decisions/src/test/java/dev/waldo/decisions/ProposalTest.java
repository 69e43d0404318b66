package dev.waldo.decisions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.Test;

/** The register's wire format: a commit carries its stamp, and replicas' older logs still read. */
class ProposalTest {
    @Test
    void aCommitCarriesItsStampAndABackoutNone() {
        Proposal commit = new Proposal("switch-1:4000#17", 123_456_789_012L);
        assertThat(Proposal.decode(commit.toMessage().getContent())).isEqualTo(commit);
        Proposal backout = new Proposal("h1#7", 0);
        assertThat(Proposal.decode(backout.toMessage().getContent())).isEqualTo(backout);
        assertThat(Proposal.settled(Proposal.answer(42))).isEqualTo(42);
        assertThat(Proposal.settled(Proposal.answer(0))).isZero();
    }

    @Test
    void aCommitLoggedBeforeStampsSettlesAfterEveryStampedOne() {
        assertThat(Proposal.decode(ByteString.copyFromUtf8("Ch1#8")))
                .isEqualTo(new Proposal("h1#8", Proposal.UNKNOWN_STAMP));
    }

    @Test
    void anythingElseIsRefused() {
        for (String text : new String[] {"S12h1#8", "Sx:h1#8", "S5:", "X", ""}) {
            assertThatThrownBy(() -> Proposal.decode(ByteString.copyFromUtf8(text))).as(text)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a decision proposal");
        }
    }
}
