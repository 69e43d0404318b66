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
 *   <li>{@link dev.waldoconf.service.SwitchService} mounts the VLAN service on it, bound to the switch
 *       by {@link dev.waldoconf.service.SwitchBinding}; {@code dev.waldoconf.custom.CustomService}
 *       mounts an operator's own program, bound by {@code ScalarSnmpBinding}.</li>
 *   <li>Both bindings keep one kind of durable journal, {@link dev.waldoconf.service.DeviceJournal}:
 *       the device's undo data of every unfinished transaction and the committed
 *       {@link dev.waldoconf.service.TrialRecord}, in one file replaced atomically
 *       ({@link dev.waldoconf.service.DurableFile}). Votes and peers are the runtime's.</li>
 *   <li>{@link dev.waldoconf.service.TrialTimer} reverts a pending trial at its deadline, for both.</li>
 *   <li>On the operator's side, {@link dev.waldoconf.service.OperatorSession} and
 *       {@link dev.waldoconf.service.ChangeRunner} run apply, confirm, rollback and status.</li>
 * </ul>
 * See "The data path of one apply, hop by hop" in {@code waldoconf/README.md}.
 */
package dev.waldoconf.service;
