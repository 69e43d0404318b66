/**
 * Device services written in Waldo whose state is scalar SNMP objects: the built-in
 * {@code system-group} or an operator's own program ({@code .wld}), run by
 * {@code waldoconf serve --service NAME|my.wld} and driven by {@code waldoconf call}.
 *
 * <ul>
 *   <li>{@link dev.waldoconf.custom.CustomProgram} compiles the operator's file together with the
 *       shipped {@code desk.wld} and checks the rules for custom services.</li>
 *   <li>{@link dev.waldoconf.custom.CustomService} is the program's Java side: it mounts the served
 *       Service and desk.wld's trial keeper ({@code WaldoConfTrial}) as a
 *       {@link dev.waldoconf.service.DeviceService} on the one server,
 *       {@link dev.waldoconf.service.SwitchServer}, bound to the agent by the one
 *       {@link dev.waldoconf.service.DeviceBinding} over a {@link dev.waldoconf.snmp.ScalarOidAdapter}
 *       (the pre-images of unfinished transactions and the pending trial in the same durable
 *       {@link dev.waldoconf.service.DeviceJournal} the VLAN service keeps).
 *       {@link dev.waldoconf.custom.CustomCall} is what {@code call} runs on the operator's host,
 *       including {@code --trial}, {@code --confirm}, {@code --rollback} and {@code --trials}.</li>
 * </ul>
 * See the "Custom device services" section of {@code waldoconf/README.md}.
 */
package dev.waldoconf.custom;
