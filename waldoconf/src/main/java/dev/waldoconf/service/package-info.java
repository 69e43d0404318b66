/**
 * The device services and what the operator runs against them.
 *
 * <ul>
 *   <li>{@link dev.waldoconf.service.SwitchServer} is the one server {@code waldoconf serve} runs for
 *       every kind of device service: a networked Waldo host with its transaction log (the runtime's
 *       {@code FileStorage}, which logs each yes vote with the host ids of the transaction's peers
 *       before it leaves), a {@link dev.waldoconf.service.ChangeGuard} in front of the device binding,
 *       and {@link dev.waldoconf.service.InDoubtRecovery}, which has the runtime learn the outcome of
 *       what a previous run left in doubt ({@code Host.recoverInDoubt(id)}).</li>
 *   <li>{@link dev.waldoconf.service.DeviceService} is the one service it mounts, for every device and
 *       program: the program's Waldo objects bound to the device by the one
 *       {@link dev.waldoconf.service.DeviceBinding} (two-phase commit, undo newest first, votes no
 *       while an undo is owed, in-doubt entries, trial records), which leaves what is particular to a
 *       device to a {@link dev.waldoconf.service.DeviceAdapter}: the Q-BRIDGE VLAN table
 *       ({@code dev.waldoconf.device.VlanTableAdapter}) or scalar OIDs
 *       ({@code dev.waldoconf.snmp.ScalarOidAdapter}). The program's Java side is a
 *       {@link dev.waldoconf.service.DeviceService.Program}: {@link dev.waldoconf.service.VlanSwitchProgram}
 *       for the VLAN service, {@code dev.waldoconf.custom.CustomService} for an operator's own.</li>
 *   <li>The binding keeps one durable journal, {@link dev.waldoconf.service.DeviceJournal}: the
 *       device's undo data of every unfinished transaction and the committed
 *       {@link dev.waldoconf.service.TrialRecord}, each version of it appended whole to one file
 *       ({@link dev.waldoconf.service.SnapshotLog}). Votes and peers are the runtime's.</li>
 *   <li>{@link dev.waldoconf.service.TrialTimer} reverts a pending trial at its deadline, for every service.</li>
 *   <li>On the operator's side, {@link dev.waldoconf.service.OperatorSession} and
 *       {@link dev.waldoconf.service.ChangeRunner} run apply, confirm, rollback and status.</li>
 * </ul>
 * See "The data path of one apply, hop by hop" in {@code waldoconf/README.md}.
 */
package dev.waldoconf.service;
