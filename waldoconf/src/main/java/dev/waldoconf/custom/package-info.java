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
 *       in a durable {@link dev.waldoconf.custom.ScalarJournal}, settled when the service starts.</li>
 *   <li>{@link dev.waldoconf.custom.CustomServer} is what {@code serve} runs for one switch;
 *       {@link dev.waldoconf.custom.CustomCall} is what {@code call} runs on the operator's host.</li>
 * </ul>
 * See the "Custom device services" section of {@code waldoconf/README.md}.
 */
package dev.waldoconf.custom;
