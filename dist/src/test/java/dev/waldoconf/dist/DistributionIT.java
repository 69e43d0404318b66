package dev.waldoconf.dist;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waldoconf.config.HostPort;
import dev.waldoconf.config.InventoryLoader;
import dev.waldoconf.config.SwitchEntry;
import dev.waldoconf.lab.LabClient;
import dev.waldoconf.lab.snmp.Oids;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release as a user gets it: the tarball unpacked into a temporary folder, its commands run from
 * there with nothing of the source tree or the build on any path, against a lab it starts itself.
 */
@Timeout(600)
class DistributionIT {
    @TempDir
    Path dir;

    @Test
    void theUnpackedReleaseStartsALabAppliesAPlanAndStopsTheLab() throws Exception {
        Release release = Release.unpack(dir);
        Path work = Files.createDirectories(dir.resolve("work"));
        Path plan = release.home().resolve("configs/vlan.yaml");
        try {
            Release.Result up = release.run(work, "waldoconf", "lab", "up");
            assertThat(up.exitCode()).as(up.output()).isZero();
            assertThat(up.output()).contains("answering, VLANs [1]");

            Release.Result apply = release.run(work, "waldoconf", "apply", plan.toString(), "--yes");
            assertThat(apply.exitCode()).as(apply.output()).isZero();
            assertThat(apply.output()).contains("Applied change");
            assertEverySwitchHasTheNewVlans(work.resolve(".waldoconf/lab"));
        } finally {
            Release.Result down = release.run(work, "waldoconf", "lab", "down");
            assertThat(down.exitCode()).as(down.output()).isZero();
            assertThat(down.output()).startsWith("Stopped the lab");
        }
    }

    @Test
    void theReleaseShipsTheCompilerCompletionAndManPages() throws Exception {
        Release release = Release.unpack(dir);
        Release.Result waldoc = release.run(dir, "waldoc", "--help");
        assertThat(waldoc.exitCode()).as(waldoc.output()).isZero();
        assertThat(waldoc.output()).contains("Usage: waldoc");

        Path completions = release.home().resolve("share/bash-completion/completions");
        assertThat(Files.readString(completions.resolve("waldoconf")))
                .contains("complete -F _complete_waldoconf").contains("apply").contains("rollback").contains("serve");
        assertThat(completions.resolve("waldoc")).isRegularFile();

        Path man = release.home().resolve("share/man/man1");
        for (String page : new String[] {"waldoconf", "waldoconf-apply", "waldoconf-serve", "waldoconf-lab-up",
            "waldoc"}) {
            // Roff from Asciidoctor's manpage converter: a title line (hyphens escaped), then the sections.
            assertThat(Files.readString(man.resolve(page + ".1"))).as(page)
                    .contains(".TH \"" + page.toUpperCase().replace("-", "\\-") + "\" \"1\"").contains(".SH \"SYNOPSIS\"");
        }
        assertThat(Files.readString(man.resolve("waldoconf-apply.1"))).contains("\\-\\-trial");
    }

    /** Reads each lab switch's VLAN table over SNMP, as the inventory the lab wrote addresses it. */
    private static void assertEverySwitchHasTheNewVlans(Path labDir) throws Exception {
        String community = Files.readAllLines(labDir.resolve("community")).get(0).strip();
        var switches = InventoryLoader.load(labDir.resolve("inventory.yaml")).switches();
        assertThat(switches).hasSize(4);
        for (SwitchEntry entry : switches) {
            HostPort snmp = entry.snmp();
            try (LabClient client = LabClient.v2c(new InetSocketAddress(snmp.host(), snmp.port()), community, 3000)) {
                assertThat(client.walk(Oids.DOT1Q_VLAN_STATIC_ROW_STATUS)).as("VLANs of " + entry.name())
                        .extracting(binding -> binding.getOid().last()).contains(10, 20, 99).doesNotContain(30);
            }
        }
    }
}
