/**
 * Device services written in Waldo whose state is scalar SNMP objects: the built-in
 * {@code system-group} or an operator's own program ({@code .wld}), run by
 * {@code waldoconf serve --service NAME|my.wld} and driven by {@code waldoconf call}.
 *
 * <ul>
 *   <li>{@link dev.waldoconf.custom.CustomProgram} compiles the operator's file together with the
 *       shipped {@code desk.wld} and checks the rules for custom services.</li>
 *   <li>{@link dev.waldoconf.custom.ScalarSnmpBinding} mirrors {@code @snmp(oid: '...')} variables
 *       onto an SNMP agent inside two-phase commit, with the pre-images of unfinished transactions
 *       ({@link dev.waldoconf.custom.PreImage}) and the pending trial (desk.wld's
 *       {@code WaldoConfTrial}) in the same durable {@link dev.waldoconf.service.DeviceJournal} the
 *       VLAN service uses, settled when the service starts; whom to ask about an in-doubt one is the
 *       runtime's transaction log's to know.</li>
 *   <li>{@link dev.waldoconf.custom.CustomService} mounts the program on the one server,
 *       {@link dev.waldoconf.service.SwitchServer}, that {@code serve} runs for every switch; it reverts a trial at its deadline with the shared {@link dev.waldoconf.service.TrialTimer}.
 *       {@link dev.waldoconf.custom.CustomCall} is what {@code call} runs on the operator's host,
 *       including {@code --trial}, {@code --confirm}, {@code --rollback} and {@code --trials}.</li>
 * </ul>
 * See the "Custom device services" section of {@code waldoconf/README.md}.
 */
package dev.waldoconf.custom;
