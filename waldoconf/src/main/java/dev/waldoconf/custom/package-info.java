/**
 * Custom device services: an operator's own Waldo program ({@code .wld}) run by
 * {@code waldoconf serve --service my.wld} and driven by {@code waldoconf call}.
 *
 * <ul>
 *   <li>{@link dev.waldoconf.custom.CustomProgram} compiles the operator's file together with the
 *       shipped {@code desk.wld} and checks the rules for custom services.</li>
 *   <li>{@link dev.waldoconf.custom.ScalarSnmpBinding} mirrors {@code @snmp(oid: '...')} variables
 *       onto an SNMP agent inside two-phase commit.</li>
 *   <li>{@link dev.waldoconf.custom.CustomServer} is what {@code serve} runs for one switch;
 *       {@link dev.waldoconf.custom.CustomCall} is what {@code call} runs on the operator's host.</li>
 * </ul>
 * See the "Custom device services" section of {@code waldoconf/README.md}.
 */
package dev.waldoconf.custom;
