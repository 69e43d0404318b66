package dev.waldoconf.lab.snmp;

import java.util.Set;
import org.snmp4j.agent.mo.snmp.CoexistenceInfo;
import org.snmp4j.agent.mo.snmp.CoexistenceInfoProvider;
import org.snmp4j.agent.security.VACM;
import org.snmp4j.security.SecurityModel;
import org.snmp4j.security.SecurityLevel;
import org.snmp4j.smi.Address;
import org.snmp4j.smi.OID;
import org.snmp4j.smi.OctetString;

/**
 * Who may read and write, in place of the full SNMP-VIEW-BASED-ACM-MIB: the read community may
 * read everything, the write community and every USM user (authenticated) may read and write
 * everything. Unknown communities are dropped silently, as RFC 3584 asks.
 */
public final class LabAccessControl implements VACM, CoexistenceInfoProvider {
    static final OctetString VIEW_ALL = new OctetString("all");
    static final OctetString VIEW_NONE = new OctetString("none");

    private final OctetString readCommunity;
    private final OctetString writeCommunity;
    private final OctetString contextEngineId;
    private final Set<OctetString> usmUsers;

    /**
     * Access for one switch.
     *
     * @param contextEngineId the agent's engine ID, which v1/v2c requests are mapped to
     * @param usmUsers the security names of the configured USM users
     */
    public LabAccessControl(String readCommunity, String writeCommunity, byte[] contextEngineId,
                            Set<String> usmUsers) {
        this.readCommunity = new OctetString(readCommunity);
        this.writeCommunity = new OctetString(writeCommunity);
        this.contextEngineId = new OctetString(contextEngineId);
        this.usmUsers = Set.copyOf(usmUsers.stream().map(OctetString::new).toList());
    }

    @Override
    public OctetString getViewName(OctetString context, OctetString securityName, int securityModel,
                                   int securityLevel, int viewType) {
        if (context != null && context.length() > 0) {
            return null;
        }
        boolean mayRead;
        boolean mayWrite;
        if (securityModel == SecurityModel.SECURITY_MODEL_USM) {
            mayRead = usmUsers.contains(securityName) && securityLevel >= SecurityLevel.AUTH_NOPRIV;
            mayWrite = mayRead;
        } else {
            mayWrite = writeCommunity.equals(securityName);
            mayRead = mayWrite || readCommunity.equals(securityName);
        }
        boolean allowed = viewType == VIEW_WRITE ? mayWrite : mayRead;
        return mayRead ? (allowed ? VIEW_ALL : VIEW_NONE) : null;
    }

    /** Whether {@code viewName}, as {@link #getViewName} names views, lets every object be read. */
    public boolean readsEverything(OctetString viewName) {
        return VIEW_ALL.equals(viewName);
    }

    @Override
    public int isAccessAllowed(OctetString viewName, OID oid) {
        return VIEW_ALL.equals(viewName) ? VACM_OK : VACM_NOT_IN_VIEW;
    }

    @Override
    public int isAccessAllowed(OctetString context, OctetString securityName, int securityModel,
                               int securityLevel, int viewType, OID oid) {
        OctetString view = getViewName(context, securityName, securityModel, securityLevel, viewType);
        return view == null ? VACM_NO_SUCH_VIEW : isAccessAllowed(view, oid);
    }

    @Override
    public CoexistenceInfo[] getCoexistenceInfo(OctetString community) {
        if (readCommunity.equals(community) || writeCommunity.equals(community)) {
            return new CoexistenceInfo[] {new CoexistenceInfo(community, contextEngineId, new OctetString())};
        }
        return null;
    }

    @Override
    public OctetString getCommunity(OctetString securityName, OctetString contextEngineID, OctetString contextName) {
        return securityName;
    }

    @Override
    public boolean passesFilter(Address address, CoexistenceInfo info) {
        return true;
    }
}
