package dev.waldoconf.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotLogTest {
    @TempDir
    Path dir;

    private Path file() {
        return dir.resolve("state.log");
    }

    private static int frames(String content) {
        return (int) content.lines().filter(line -> line.startsWith(SnapshotLog.HEADER)).count();
    }

    @Test
    void eachVersionIsAppendedAndTheLastOneIsCurrentWhenReopened() throws IOException {
        SnapshotLog log = SnapshotLog.open(file());
        assertThat(log.current()).isNull();
        log.write("one\n");
        log.write("two\nlines\n");
        log.write("three ü\n");

        assertThat(SnapshotLog.open(file()).current()).isEqualTo("three ü\n");
        assertThat(frames(Files.readString(file()))).as("appended, not rewritten").isEqualTo(3);
        assertThat(SnapshotLog.open(file()).currentLine()).as("after three header lines and three of text").isEqualTo(7);
    }

    @Test
    void aTornLastAppendIsIgnoredAndTheNextWriteRewritesTheFileWithoutIt() throws IOException {
        SnapshotLog log = SnapshotLog.open(file());
        log.write("one\n");
        log.write("two\n");
        byte[] three = SnapshotLog.frame("three\n");
        Files.write(file(), Arrays.copyOf(three, three.length - 2), StandardOpenOption.APPEND); // died while appending

        SnapshotLog reopened = SnapshotLog.open(file());
        assertThat(reopened.current()).isEqualTo("two\n");
        reopened.write("four\n");
        assertThat(frames(Files.readString(file()))).as("rewritten with the current version alone").isEqualTo(1);
        reopened.write("five\n");
        assertThat(SnapshotLog.open(file()).current()).isEqualTo("five\n");
    }

    @Test
    void aLastFrameThatFailsItsChecksumCountsAsTorn() throws IOException {
        SnapshotLog log = SnapshotLog.open(file());
        log.write("one\n");
        log.write("two\n");
        byte[] bytes = Files.readAllBytes(file());
        bytes[bytes.length - 2] = 'X';  // "twX\n": written out of order and cut by a power loss
        Files.write(file(), bytes);

        assertThat(SnapshotLog.open(file()).current()).isEqualTo("one\n");
    }

    @Test
    void aBrokenFrameBeforeWholeOnesIsDamageAndIsRefusedWithTheByteOffset() throws IOException {
        SnapshotLog log = SnapshotLog.open(file());
        log.write("one\n");
        log.write("two\n");
        log.write("three\n");
        String content = Files.readString(file());
        int second = content.indexOf(SnapshotLog.HEADER, 1);
        Files.writeString(file(), content.replace("two\n", "twX\n"));

        assertThatThrownBy(() -> SnapshotLog.open(file())).isInstanceOf(IOException.class)
                .hasMessageStartingWith(file() + ": the frame at byte " + second + " is broken but whole ones follow it")
                .hasMessageContaining("move the file away");
    }

    @Test
    void aBrokenFirstFrameIsRefused() throws IOException {
        SnapshotLog.open(file()).write("one\n");
        byte[] bytes = Files.readAllBytes(file());
        Files.write(file(), Arrays.copyOf(bytes, bytes.length - 1));

        assertThatThrownBy(() -> SnapshotLog.open(file())).isInstanceOf(IOException.class)
                .hasMessageStartingWith(file() + ": its first frame is broken, so it holds no whole version");
    }

    @Test
    void theFileIsRewrittenWithTheCurrentVersionAloneOnceItGrowsPastTheLimit() throws IOException {
        SnapshotLog log = SnapshotLog.open(file());
        String version = "x".repeat(1000) + "\n";
        long largest = 0;
        for (int i = 0; i < 200; i++) {
            log.write(i + " " + version);
            largest = Math.max(largest, Files.size(file()));
        }
        assertThat(largest).isLessThanOrEqualTo(SnapshotLog.COMPACT_AT);
        assertThat(frames(Files.readString(file()))).isLessThan(200 / 2);
        assertThat(SnapshotLog.open(file()).current()).isEqualTo("199 " + version);
    }

    @Test
    void aFileWrittenWholeBeforeFramesIsReadAsOneVersionAndRewrittenAsAFrame() throws IOException {
        Files.writeString(file(), "plain\ntext\n");
        SnapshotLog log = SnapshotLog.open(file());
        assertThat(log.current()).isEqualTo("plain\ntext\n");

        log.write("framed\n");
        assertThat(Files.readString(file())).startsWith(SnapshotLog.HEADER).doesNotContain("plain");
        assertThat(SnapshotLog.open(file()).current()).isEqualTo("framed\n");
    }

    @Test
    void aFileRemovedWhileOpenIsWrittenAgainWhole() throws IOException {
        SnapshotLog log = SnapshotLog.open(file());
        log.write("one\n");
        Files.delete(file());
        log.write("two\n");

        assertThat(frames(Files.readString(file()))).isEqualTo(1);
        assertThat(SnapshotLog.read(file())).isEqualTo("two\n");
    }

    @Test
    void openingDeletesTheRemainsOfARewriteButReadingLeavesThemForTheWriter() throws IOException {
        SnapshotLog.open(file()).write("one\n");
        Path temporary = DurableFile.temporaryOf(file());
        Files.write(temporary, SnapshotLog.frame("half"));

        assertThat(SnapshotLog.read(file())).isEqualTo("one\n");
        assertThat(temporary).exists();
        assertThat(SnapshotLog.open(file()).current()).isEqualTo("one\n");
        assertThat(temporary).doesNotExist();
    }

    @Test
    void anEmptyFileHoldsAnEmptyVersionForItsOwnerToJudge() throws IOException {
        Files.write(file(), new byte[0]);
        assertThat(SnapshotLog.open(file()).current()).isEmpty();
        assertThat(new String(SnapshotLog.frame(""), StandardCharsets.UTF_8)).startsWith(SnapshotLog.HEADER + "0 ");
    }
}
