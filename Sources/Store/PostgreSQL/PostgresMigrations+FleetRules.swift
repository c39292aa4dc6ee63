import PINHash

// The fleet's rules, kept by its server (migrations v11 on): each station
// its own role, row-level security, the owner's functions for tokens and
// PINs, what no rollback undoes, what the server stamps. Each step says
// what it adds; `{schema}` is the store's schema and `{crypto}` pgcrypto's,
// both quoted, put in by `migrate`.
extension PostgresMigrations {
    /// Migrations v11 on, in `StoreSchema.migrations`' order.
    static let fleetRules: [String] = [
        // v11: each station connects as a role of its own, which the owner
        // names in `switchboard_station_role` (`switchboard fleet add`); the
        // server, not the station's configuration, says which station a
        // connection acts for (`switchboard_station()`, from `session_user`).
        // Row-level security keeps such a role to its own station: its own
        // sessions (`STATION/…`) and station rows, events only of its own
        // sessions (or none), and tokens only of identities whose account one
        // of its sessions has active. Tokens are written through a function
        // of the owner's, since a station stores the tokens of a sign-in
        // before a PIN makes the account active. A role the owner named no
        // station (the operator's, or one made before station roles) acts
        // for every station, as before. For every role but the owner (whose
        // copies and tools keep what they give), the server writes an
        // event's time and whose connection appended it (`origin`): no
        // event is back-dated or told as another's.
        // `{schema}` is the schema the tables are in, quoted.
        """
        CREATE TABLE switchboard_station_role (
          role name PRIMARY KEY,
          station text NOT NULL UNIQUE CHECK (station <> '' AND position('/' in station) = 0)
        );
        ALTER TABLE event ADD COLUMN origin text;
        CREATE FUNCTION switchboard_station() RETURNS text LANGUAGE sql STABLE SECURITY DEFINER
          SET search_path = {schema}, pg_temp
          AS $$ SELECT station FROM switchboard_station_role WHERE role = session_user $$;
        CREATE FUNCTION switchboard_acts_for(session text) RETURNS boolean LANGUAGE sql STABLE
          SET search_path = {schema}, pg_temp
          AS $$ SELECT me.station IS NULL OR left(session, length(me.station) + 1) = me.station || '/'
                FROM (SELECT switchboard_station() AS station) AS me $$;
        ALTER TABLE session ENABLE ROW LEVEL SECURITY;
        CREATE POLICY sessions_of_the_station ON session
          USING (switchboard_acts_for(key)) WITH CHECK (switchboard_acts_for(key));
        ALTER TABLE station ENABLE ROW LEVEL SECURITY;
        CREATE POLICY rows_of_the_station ON station
          USING (switchboard_station() IS NULL OR station = switchboard_station())
          WITH CHECK (switchboard_station() IS NULL OR station = switchboard_station());
        ALTER TABLE credential ENABLE ROW LEVEL SECURITY;
        CREATE POLICY tokens_where_active ON credential
          USING (switchboard_station() IS NULL OR EXISTS (
            SELECT 1 FROM identity JOIN session ON session.accountId = identity.accountId
            WHERE identity.provider = credential.provider AND identity.subject = credential.subject
              AND switchboard_acts_for(session.key)))
          WITH CHECK (true);
        CREATE FUNCTION switchboard_save_tokens(
          p_provider text, p_subject text, p_access text, p_refresh text, p_id text, p_type text, p_scope text,
          p_expires timestamptz, p_updated timestamptz
        ) RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
        BEGIN
          IF NOT has_table_privilege(session_user, 'credential', 'INSERT') THEN
            RAISE EXCEPTION 'the role % may not store tokens', session_user USING ERRCODE = '42501';
          END IF;
          INSERT INTO credential (provider, subject, accessToken, refreshToken, idToken, tokenType, scope, expiresAt, updatedAt)
          VALUES (p_provider, p_subject, p_access, p_refresh, p_id, p_type, p_scope, p_expires, p_updated)
          ON CONFLICT (provider, subject) DO UPDATE SET
            accessToken = excluded.accessToken, refreshToken = excluded.refreshToken, idToken = excluded.idToken,
            tokenType = excluded.tokenType, scope = excluded.scope, expiresAt = excluded.expiresAt, updatedAt = excluded.updatedAt;
        END $$;
        ALTER TABLE event ENABLE ROW LEVEL SECURITY;
        CREATE POLICY the_log_is_read_by_all ON event FOR SELECT USING (true);
        CREATE POLICY events_of_the_station ON event FOR INSERT WITH CHECK (session IS NULL OR switchboard_acts_for(session));
        CREATE TRIGGER event_is_never_updated BEFORE UPDATE ON event
          FOR EACH STATEMENT EXECUTE FUNCTION switchboard_event_is_append_only();
        CREATE FUNCTION switchboard_event_stamp() RETURNS trigger LANGUAGE plpgsql SET search_path = {schema}, pg_temp AS $$
        BEGIN
          IF NOT pg_has_role(current_user, (SELECT relowner FROM pg_class WHERE oid = TG_RELID), 'USAGE') THEN
            NEW.at := clock_timestamp();
            NEW.origin := session_user;
          END IF;
          RETURN NEW;
        END $$;
        CREATE TRIGGER event_is_stamped BEFORE INSERT ON event
          FOR EACH ROW EXECUTE FUNCTION switchboard_event_stamp();
        """,
        // v12: a PIN's hash never leaves the server. A station reads a PIN's
        // parameters and salt (the grants leave out `hash`), derives what
        // the PIN given makes of them, and the owner's functions compare,
        // count and set: `switchboard_pin_try` locks the row, refuses to look
        // while it is locked out (by the server's clock, for a station's
        // role), clears the count on a right PIN (the operator PIN's also
        // clears those named) and adds to it on a wrong one;
        // `switchboard_pin_set` and `switchboard_pin_clear` change a PIN or
        // a count only after a right PIN (the owner's, or the operator's) in
        // the same transaction, which `switchboard_pin_proof` remembers. The
        // lockout's numbers are `Lockout`'s.
        """
        CREATE TABLE switchboard_pin_proof (xact bigint NOT NULL, owner text NOT NULL);
        CREATE FUNCTION switchboard_pin_wait(failures integer) RETURNS interval LANGUAGE sql IMMUTABLE AS $$
          SELECT CASE
            WHEN failures < \(Lockout.freeFailures) THEN interval '0 s'
            WHEN failures - \(Lockout.freeFailures) >= 12 THEN make_interval(secs => \(Int(Lockout.longestWait)))
            ELSE least(make_interval(secs => \(Int(Lockout.longestWait))),
                       make_interval(secs => \(Int(Lockout.firstWait)) * (2 ^ (failures - \(Lockout.freeFailures)))))
          END $$;
        CREATE FUNCTION switchboard_pin_caller() RETURNS void LANGUAGE plpgsql STABLE SET search_path = {schema}, pg_temp AS $$
        BEGIN
          IF NOT has_any_column_privilege(session_user, 'pin', 'SELECT') THEN
            RAISE EXCEPTION 'the role % may not use PINs', session_user USING ERRCODE = '42501';
          END IF;
        END $$;
        CREATE FUNCTION switchboard_pin_try(p_owner text, p_candidate bytea, p_at timestamptz, p_clears text)
          RETURNS TABLE (tried_verdict text, tried_failures integer, tried_last_failure timestamptz)
          LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
        DECLARE
          found_pin record;
          now_at timestamptz := CASE WHEN switchboard_station() IS NULL THEN p_at ELSE clock_timestamp() END;
          counted integer;
        BEGIN
          PERFORM switchboard_pin_caller();
          SELECT pin.failures, pin.lastFailureAt, pin.hash INTO found_pin FROM pin WHERE pin.owner = p_owner FOR UPDATE;
          IF NOT FOUND THEN
            RETURN QUERY SELECT 'open'::text, 0, NULL::timestamptz; RETURN;
          END IF;
          IF found_pin.lastFailureAt IS NOT NULL AND switchboard_pin_wait(found_pin.failures) > interval '0 s'
             AND found_pin.lastFailureAt + switchboard_pin_wait(found_pin.failures) > now_at THEN
            RETURN QUERY SELECT 'locked'::text, found_pin.failures, found_pin.lastFailureAt; RETURN;
          END IF;
          IF p_candidate IS NULL THEN
            RETURN QUERY SELECT 'missing'::text, found_pin.failures, found_pin.lastFailureAt; RETURN;
          END IF;
          IF found_pin.hash = p_candidate THEN
            UPDATE pin SET failures = 0, lastFailureAt = NULL
              WHERE pin.failures > 0 AND (pin.owner = p_owner
                OR (p_owner = 'operator' AND pin.owner = ANY (string_to_array(p_clears, E'\\n'))));
            DELETE FROM switchboard_pin_proof WHERE xact <> txid_current();
            INSERT INTO switchboard_pin_proof (xact, owner) VALUES (txid_current(), p_owner);
            RETURN QUERY SELECT 'accepted'::text, 0, NULL::timestamptz; RETURN;
          END IF;
          UPDATE pin SET failures = pin.failures + 1, lastFailureAt = now_at WHERE pin.owner = p_owner
            RETURNING pin.failures INTO counted;
          RETURN QUERY SELECT 'wrong'::text, counted, now_at;
        END $$;
        CREATE FUNCTION switchboard_pin_proven(p_owner text) RETURNS boolean LANGUAGE sql STABLE
          SET search_path = {schema}, pg_temp
          AS $$ SELECT EXISTS (SELECT 1 FROM switchboard_pin_proof WHERE xact = txid_current() AND owner IN (p_owner, 'operator')) $$;
        CREATE FUNCTION switchboard_pin_set(
          p_owner text, p_account bigint, p_algorithm text, p_rounds integer, p_salt bytea, p_hash bytea, p_set_at timestamptz
        ) RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
        BEGIN
          PERFORM switchboard_pin_caller();
          IF p_owner IS DISTINCT FROM (CASE WHEN p_account IS NULL THEN 'operator' ELSE 'account:' || p_account END) THEN
            RAISE EXCEPTION 'a PIN''s owner and account disagree' USING ERRCODE = '22023';
          END IF;
          IF EXISTS (SELECT 1 FROM pin WHERE owner = p_owner) AND NOT switchboard_pin_proven(p_owner) THEN
            RAISE EXCEPTION 'changing a PIN that is set takes it, or the operator PIN, first' USING ERRCODE = '42501';
          END IF;
          IF p_hash IS NULL THEN
            DELETE FROM pin WHERE owner = p_owner;
          ELSE
            INSERT INTO pin (owner, accountId, algorithm, rounds, salt, hash, setAt, failures, lastFailureAt)
            VALUES (p_owner, p_account, p_algorithm, p_rounds, p_salt, p_hash, p_set_at, 0, NULL)
            ON CONFLICT (owner) DO UPDATE SET accountId = excluded.accountId, algorithm = excluded.algorithm,
              rounds = excluded.rounds, salt = excluded.salt, hash = excluded.hash, setAt = excluded.setAt,
              failures = 0, lastFailureAt = NULL;
          END IF;
        END $$;
        CREATE FUNCTION switchboard_pin_clear(p_owner text) RETURNS void
          LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
        BEGIN
          PERFORM switchboard_pin_caller();
          IF NOT EXISTS (SELECT 1 FROM switchboard_pin_proof WHERE xact = txid_current() AND owner = 'operator') THEN
            RAISE EXCEPTION 'clearing wrong tries takes the operator PIN first' USING ERRCODE = '42501';
          END IF;
          UPDATE pin SET failures = 0, lastFailureAt = NULL WHERE owner = p_owner AND failures > 0;
        END $$;
        """,
        // v13: events keep the name of the account they are about.
        StoreSchema.eventNamesSQL,
        // v14: tokens are sealed (pgcrypto's OpenPGP symmetric encryption,
        // AES-256, with integrity) with a random key in a table no role but
        // the owner reads. Only the owner's functions seal and unseal:
        // `switchboard_save_tokens` seals what a station stores;
        // `switchboard_tokens` hands an identity's tokens out unsealed, to a
        // station's role only while one of its own sessions has the account
        // active (any other role that may read `credential`: always);
        // `switchboard_expire_access_token` marks an access token run out.
        // What a role may read of `credential` is ciphertext. `{crypto}` is
        // the schema pgcrypto is in.
        """
        CREATE TABLE switchboard_token_key (key text NOT NULL);
        INSERT INTO switchboard_token_key (key) VALUES (encode({crypto}.gen_random_bytes(32), 'hex'));
        CREATE FUNCTION switchboard_seal(p_text text) RETURNS text LANGUAGE sql STABLE SET search_path = {schema}, pg_temp AS $$
          SELECT encode({crypto}.pgp_sym_encrypt(p_text, (SELECT key FROM switchboard_token_key), 'cipher-algo=aes256, s2k-mode=1'), 'base64')
        $$;
        CREATE FUNCTION switchboard_unseal(p_sealed text) RETURNS text LANGUAGE sql STABLE SET search_path = {schema}, pg_temp AS $$
          SELECT {crypto}.pgp_sym_decrypt(decode(p_sealed, 'base64'), (SELECT key FROM switchboard_token_key))
        $$;
        REVOKE ALL ON FUNCTION switchboard_seal(text), switchboard_unseal(text) FROM PUBLIC;
        UPDATE credential SET accessToken = switchboard_seal(accessToken), refreshToken = switchboard_seal(refreshToken),
          idToken = switchboard_seal(idToken);
        CREATE FUNCTION switchboard_credential_caller() RETURNS void LANGUAGE plpgsql STABLE SET search_path = {schema}, pg_temp AS $$
        BEGIN
          IF NOT has_any_column_privilege(session_user, 'credential', 'SELECT') THEN
            RAISE EXCEPTION 'the role % may not use tokens', session_user USING ERRCODE = '42501';
          END IF;
        END $$;
        CREATE OR REPLACE FUNCTION switchboard_save_tokens(
          p_provider text, p_subject text, p_access text, p_refresh text, p_id text, p_type text, p_scope text,
          p_expires timestamptz, p_updated timestamptz
        ) RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
        BEGIN
          PERFORM switchboard_credential_caller();
          INSERT INTO credential (provider, subject, accessToken, refreshToken, idToken, tokenType, scope, expiresAt, updatedAt)
          VALUES (p_provider, p_subject, switchboard_seal(p_access), switchboard_seal(p_refresh), switchboard_seal(p_id),
                  p_type, p_scope, p_expires, p_updated)
          ON CONFLICT (provider, subject) DO UPDATE SET
            accessToken = excluded.accessToken, refreshToken = excluded.refreshToken, idToken = excluded.idToken,
            tokenType = excluded.tokenType, scope = excluded.scope, expiresAt = excluded.expiresAt, updatedAt = excluded.updatedAt;
        END $$;
        CREATE FUNCTION switchboard_tokens(p_provider text, p_subject text)
          RETURNS TABLE (token_access text, token_refresh text, token_id text, token_type text, token_scope text, token_expires timestamptz)
          LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
        BEGIN
          PERFORM switchboard_credential_caller();
          IF switchboard_station() IS NOT NULL AND NOT EXISTS (
            SELECT 1 FROM identity JOIN session ON session.accountId = identity.accountId
            WHERE identity.provider = p_provider AND identity.subject = p_subject AND switchboard_acts_for(session.key)) THEN
            RETURN;
          END IF;
          RETURN QUERY
            SELECT switchboard_unseal(accessToken), switchboard_unseal(refreshToken), switchboard_unseal(idToken), tokenType, scope, expiresAt
            FROM credential WHERE provider = p_provider AND subject = p_subject;
        END $$;
        CREATE FUNCTION switchboard_expire_access_token(p_provider text, p_subject text, p_access text, p_at timestamptz)
          RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
        BEGIN
          IF NOT EXISTS (SELECT 1 FROM switchboard_tokens(p_provider, p_subject) WHERE token_access = p_access) THEN
            RETURN false;
          END IF;
          UPDATE credential SET expiresAt = p_at, updatedAt = p_at WHERE provider = p_provider AND subject = p_subject;
          RETURN true;
        END $$;
        """,
        // v15: a try counted in the transaction that makes it can be
        // rolled back by its caller, who has learnt the verdict all the
        // same: a role could try every PIN for free. So each PIN's tries
        // are also counted in a sequence of its own, which no rollback
        // undoes (`setval`): its value is the last wrong try's second
        // times 1000 plus the count of wrong tries (at most 999). The
        // lockout is decided on the larger of the sequence's count and the
        // row's; the row keeps what the board and `pin` show. A PIN's
        // sequence is made when the PIN is set (in a transaction that
        // commits with it), and for the PINs already set, here. Tries are
        // timed by the server's clock for every role but the owner.
        """
        CREATE FUNCTION switchboard_is_owner() RETURNS boolean LANGUAGE sql STABLE SET search_path = {schema}, pg_temp
          AS $$ SELECT pg_catalog.pg_has_role(session_user,
                  (SELECT relowner FROM pg_catalog.pg_class WHERE oid = '{schema}.pin'::regclass), 'USAGE') $$;
        CREATE FUNCTION switchboard_pin_counter(p_owner text) RETURNS text LANGUAGE sql IMMUTABLE
          AS $$ SELECT 'switchboard_pin_tries_' || md5(p_owner) $$;
        CREATE FUNCTION switchboard_pin_count(p_owner text, p_failures integer, p_at timestamptz) RETURNS void
          LANGUAGE plpgsql SET search_path = {schema}, pg_temp AS $$
        BEGIN
          PERFORM setval(format('{schema}.%I', switchboard_pin_counter(p_owner))::regclass,
            CASE WHEN p_failures = 0 THEN 0 ELSE floor(extract(epoch FROM p_at))::bigint * 1000 + least(p_failures, 999) END);
        END $$;
        REVOKE ALL ON FUNCTION switchboard_pin_count(text, integer, timestamptz) FROM PUBLIC;
        CREATE FUNCTION switchboard_pin_counters() RETURNS void LANGUAGE plpgsql SET search_path = {schema}, pg_temp AS $$
        DECLARE row record;
        BEGIN
          FOR row IN SELECT owner, failures, lastFailureAt FROM pin LOOP
            EXECUTE format('CREATE SEQUENCE IF NOT EXISTS {schema}.%I MINVALUE 0', switchboard_pin_counter(row.owner));
            PERFORM switchboard_pin_count(row.owner, row.failures, coalesce(row.lastFailureAt, now()));
          END LOOP;
        END $$;
        REVOKE ALL ON FUNCTION switchboard_pin_counters() FROM PUBLIC;
        SELECT switchboard_pin_counters();
        CREATE OR REPLACE FUNCTION switchboard_pin_try(p_owner text, p_candidate bytea, p_at timestamptz, p_clears text)
          RETURNS TABLE (tried_verdict text, tried_failures integer, tried_last_failure timestamptz)
          LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
        DECLARE
          found_pin record;
          now_at timestamptz := CASE WHEN switchboard_is_owner() THEN p_at ELSE clock_timestamp() END;
          counted bigint;
          tries integer;
          last_failure timestamptz;
          other text;
        BEGIN
          PERFORM switchboard_pin_caller();
          SELECT pin.failures, pin.lastFailureAt, pin.hash INTO found_pin FROM pin WHERE pin.owner = p_owner FOR UPDATE;
          IF NOT FOUND THEN
            RETURN QUERY SELECT 'open'::text, 0, NULL::timestamptz; RETURN;
          END IF;
          EXECUTE format('SELECT last_value FROM {schema}.%I', switchboard_pin_counter(p_owner)) INTO counted;
          tries := greatest(found_pin.failures, (counted % 1000)::integer);
          last_failure := CASE WHEN counted % 1000 = 0 THEN found_pin.lastFailureAt
            ELSE greatest(found_pin.lastFailureAt, to_timestamp(counted / 1000)) END;
          IF last_failure IS NOT NULL AND switchboard_pin_wait(tries) > interval '0 s'
             AND last_failure + switchboard_pin_wait(tries) > now_at THEN
            RETURN QUERY SELECT 'locked'::text, tries, last_failure; RETURN;
          END IF;
          IF p_candidate IS NULL THEN
            RETURN QUERY SELECT 'missing'::text, tries, last_failure; RETURN;
          END IF;
          IF found_pin.hash = p_candidate THEN
            PERFORM switchboard_pin_count(p_owner, 0, now_at);
            UPDATE pin SET failures = 0, lastFailureAt = NULL WHERE pin.owner = p_owner AND pin.failures > 0;
            IF p_owner = 'operator' THEN
              FOR other IN SELECT pin.owner FROM pin WHERE pin.owner = ANY (string_to_array(p_clears, E'\\n')) LOOP
                PERFORM switchboard_pin_count(other, 0, now_at);
                UPDATE pin SET failures = 0, lastFailureAt = NULL WHERE pin.owner = other AND pin.failures > 0;
              END LOOP;
            END IF;
            DELETE FROM switchboard_pin_proof WHERE xact <> txid_current();
            INSERT INTO switchboard_pin_proof (xact, owner) VALUES (txid_current(), p_owner);
            RETURN QUERY SELECT 'accepted'::text, 0, NULL::timestamptz; RETURN;
          END IF;
          -- Counted first where no rollback reaches, then in the row.
          PERFORM switchboard_pin_count(p_owner, tries + 1, now_at);
          UPDATE pin SET failures = tries + 1, lastFailureAt = now_at WHERE pin.owner = p_owner;
          RETURN QUERY SELECT 'wrong'::text, tries + 1, now_at;
        END $$;
        CREATE OR REPLACE FUNCTION switchboard_pin_set(
          p_owner text, p_account bigint, p_algorithm text, p_rounds integer, p_salt bytea, p_hash bytea, p_set_at timestamptz
        ) RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
        BEGIN
          PERFORM switchboard_pin_caller();
          IF p_owner IS DISTINCT FROM (CASE WHEN p_account IS NULL THEN 'operator' ELSE 'account:' || p_account END) THEN
            RAISE EXCEPTION 'a PIN''s owner and account disagree' USING ERRCODE = '22023';
          END IF;
          IF EXISTS (SELECT 1 FROM pin WHERE owner = p_owner) AND NOT switchboard_pin_proven(p_owner) THEN
            RAISE EXCEPTION 'changing a PIN that is set takes it, or the operator PIN, first' USING ERRCODE = '42501';
          END IF;
          IF p_hash IS NULL THEN
            DELETE FROM pin WHERE owner = p_owner;
            EXECUTE format('DROP SEQUENCE IF EXISTS {schema}.%I', switchboard_pin_counter(p_owner));
          ELSE
            INSERT INTO pin (owner, accountId, algorithm, rounds, salt, hash, setAt, failures, lastFailureAt)
            VALUES (p_owner, p_account, p_algorithm, p_rounds, p_salt, p_hash, p_set_at, 0, NULL)
            ON CONFLICT (owner) DO UPDATE SET accountId = excluded.accountId, algorithm = excluded.algorithm,
              rounds = excluded.rounds, salt = excluded.salt, hash = excluded.hash, setAt = excluded.setAt,
              failures = 0, lastFailureAt = NULL;
            EXECUTE format('CREATE SEQUENCE IF NOT EXISTS {schema}.%I MINVALUE 0', switchboard_pin_counter(p_owner));
            PERFORM switchboard_pin_count(p_owner, 0, p_set_at);
          END IF;
        END $$;
        CREATE OR REPLACE FUNCTION switchboard_pin_clear(p_owner text) RETURNS void
          LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
        BEGIN
          PERFORM switchboard_pin_caller();
          IF NOT EXISTS (SELECT 1 FROM switchboard_pin_proof WHERE xact = txid_current() AND owner = 'operator') THEN
            RAISE EXCEPTION 'clearing wrong tries takes the operator PIN first' USING ERRCODE = '42501';
          END IF;
          IF EXISTS (SELECT 1 FROM pin WHERE owner = p_owner) THEN
            PERFORM switchboard_pin_count(p_owner, 0, now());
          END IF;
          UPDATE pin SET failures = 0, lastFailureAt = NULL WHERE owner = p_owner AND failures > 0;
        END $$;
        """,
        // v16: what a station's role may do to a person is what the person
        // (or the operator) let it do, checked by the server:
        // - it makes an account with a PIN active in one of its sessions
        //   only after that PIN, or the operator PIN, was given right in the
        //   same transaction (so no session of its own hands it a person's
        //   tokens unasked);
        // - it moves or removes an identity, or removes an account, only of
        //   an account without a PIN, one its sessions have active, or one
        //   whose PIN was given; never an account another station has active;
        // - it stores tokens only for identities of accounts its own
        //   sessions have active (else nothing is stored, silently: a
        //   sign-in that waits for a PIN keeps the tokens stored before);
        // - it sets a PIN that is not set only on an account its sessions
        //   have active, and never the operator PIN;
        // - it chooses no ids (column grants) and reads no sequence.
        // The owner-only triggers read the catalogue by its full name.
        """
        CREATE OR REPLACE FUNCTION switchboard_owner_only() RETURNS trigger LANGUAGE plpgsql
          SET search_path = pg_catalog, pg_temp AS $$
        BEGIN
          IF NOT pg_catalog.pg_has_role(current_user, (SELECT relowner FROM pg_catalog.pg_class WHERE oid = TG_RELID), 'USAGE') THEN
            RAISE EXCEPTION 'only the owner of the store''s tables may % %', TG_OP, TG_TABLE_NAME USING ERRCODE = '42501';
          END IF;
          RETURN NULL;
        END $$;
        ALTER FUNCTION switchboard_event_is_append_only() SET search_path = pg_catalog, pg_temp;
        ALTER FUNCTION switchboard_event_is_pruned_oldest_first() SET search_path = {schema}, pg_temp;
        CREATE FUNCTION switchboard_active_here(p_account bigint) RETURNS boolean LANGUAGE sql STABLE
          SET search_path = {schema}, pg_temp
          AS $$ SELECT EXISTS (SELECT 1 FROM session WHERE accountId = p_account AND switchboard_acts_for(key)) $$;
        CREATE FUNCTION switchboard_guarded(p_account bigint) RETURNS boolean LANGUAGE sql STABLE
          SET search_path = {schema}, pg_temp
          AS $$ SELECT p_account IS NOT NULL AND EXISTS (SELECT 1 FROM pin WHERE owner = 'account:' || p_account)
                 AND NOT switchboard_pin_proven('account:' || p_account) AND NOT switchboard_active_here(p_account) $$;
        CREATE FUNCTION switchboard_session_guard() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
          SET search_path = {schema}, pg_temp AS $$
        BEGIN
          IF switchboard_station() IS NOT NULL AND NEW.accountId IS NOT NULL
             AND (TG_OP = 'INSERT' OR OLD.accountId IS DISTINCT FROM NEW.accountId)
             AND NOT EXISTS (SELECT 1 FROM session WHERE key = NEW.key AND accountId = NEW.accountId)
             AND EXISTS (SELECT 1 FROM pin WHERE owner = 'account:' || NEW.accountId)
             AND NOT switchboard_pin_proven('account:' || NEW.accountId) THEN
            RAISE EXCEPTION 'making account % active takes its PIN, or the operator PIN, first', NEW.accountId USING ERRCODE = '42501';
          END IF;
          RETURN NEW;
        END $$;
        CREATE TRIGGER session_takes_the_pin BEFORE INSERT OR UPDATE OF accountId ON session
          FOR EACH ROW EXECUTE FUNCTION switchboard_session_guard();
        CREATE FUNCTION switchboard_identity_guard() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
          SET search_path = {schema}, pg_temp AS $$
        BEGIN
          IF switchboard_station() IS NULL THEN
            RETURN coalesce(NEW, OLD);
          END IF;
          IF TG_OP <> 'INSERT' AND switchboard_guarded(OLD.accountId) THEN
            RAISE EXCEPTION 'an identity of account % moves or goes only with its PIN, or the operator PIN', OLD.accountId
              USING ERRCODE = '42501';
          END IF;
          IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR OLD.accountId IS DISTINCT FROM NEW.accountId)
             AND switchboard_guarded(NEW.accountId) THEN
            RAISE EXCEPTION 'an identity joins account % only with its PIN, or the operator PIN', NEW.accountId USING ERRCODE = '42501';
          END IF;
          RETURN coalesce(NEW, OLD);
        END $$;
        CREATE TRIGGER identity_takes_the_pin BEFORE INSERT OR UPDATE OF accountId, provider, subject OR DELETE ON identity
          FOR EACH ROW EXECUTE FUNCTION switchboard_identity_guard();
        CREATE FUNCTION switchboard_account_guard() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
          SET search_path = {schema}, pg_temp AS $$
        BEGIN
          IF switchboard_station() IS NOT NULL AND (switchboard_guarded(OLD.id)
             OR EXISTS (SELECT 1 FROM session WHERE accountId = OLD.id AND NOT switchboard_acts_for(key))) THEN
            RAISE EXCEPTION 'account % is removed only with its PIN, and only where no other station has it active', OLD.id
              USING ERRCODE = '42501';
          END IF;
          RETURN OLD;
        END $$;
        CREATE TRIGGER account_takes_the_pin BEFORE DELETE ON account
          FOR EACH ROW EXECUTE FUNCTION switchboard_account_guard();
        CREATE OR REPLACE FUNCTION switchboard_save_tokens(
          p_provider text, p_subject text, p_access text, p_refresh text, p_id text, p_type text, p_scope text,
          p_expires timestamptz, p_updated timestamptz
        ) RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
        BEGIN
          PERFORM switchboard_credential_caller();
          IF switchboard_station() IS NOT NULL AND NOT EXISTS (
            SELECT 1 FROM identity WHERE provider = p_provider AND subject = p_subject AND switchboard_active_here(identity.accountId)) THEN
            RETURN;
          END IF;
          INSERT INTO credential (provider, subject, accessToken, refreshToken, idToken, tokenType, scope, expiresAt, updatedAt)
          VALUES (p_provider, p_subject, switchboard_seal(p_access), switchboard_seal(p_refresh), switchboard_seal(p_id),
                  p_type, p_scope, p_expires, p_updated)
          ON CONFLICT (provider, subject) DO UPDATE SET
            accessToken = excluded.accessToken, refreshToken = excluded.refreshToken, idToken = excluded.idToken,
            tokenType = excluded.tokenType, scope = excluded.scope, expiresAt = excluded.expiresAt, updatedAt = excluded.updatedAt;
        END $$;
        CREATE OR REPLACE FUNCTION switchboard_pin_set(
          p_owner text, p_account bigint, p_algorithm text, p_rounds integer, p_salt bytea, p_hash bytea, p_set_at timestamptz
        ) RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
        BEGIN
          PERFORM switchboard_pin_caller();
          IF p_owner IS DISTINCT FROM (CASE WHEN p_account IS NULL THEN 'operator' ELSE 'account:' || p_account END) THEN
            RAISE EXCEPTION 'a PIN''s owner and account disagree' USING ERRCODE = '22023';
          END IF;
          IF EXISTS (SELECT 1 FROM pin WHERE owner = p_owner) THEN
            IF NOT switchboard_pin_proven(p_owner) THEN
              RAISE EXCEPTION 'changing a PIN that is set takes it, or the operator PIN, first' USING ERRCODE = '42501';
            END IF;
          ELSIF switchboard_station() IS NOT NULL AND (p_account IS NULL OR NOT switchboard_active_here(p_account)) THEN
            RAISE EXCEPTION 'a station sets a new PIN only for an account its own session has active (the operator PIN: the operator)'
              USING ERRCODE = '42501';
          END IF;
          IF p_hash IS NULL THEN
            DELETE FROM pin WHERE owner = p_owner;
            EXECUTE format('DROP SEQUENCE IF EXISTS {schema}.%I', switchboard_pin_counter(p_owner));
          ELSE
            INSERT INTO pin (owner, accountId, algorithm, rounds, salt, hash, setAt, failures, lastFailureAt)
            VALUES (p_owner, p_account, p_algorithm, p_rounds, p_salt, p_hash, p_set_at, 0, NULL)
            ON CONFLICT (owner) DO UPDATE SET accountId = excluded.accountId, algorithm = excluded.algorithm,
              rounds = excluded.rounds, salt = excluded.salt, hash = excluded.hash, setAt = excluded.setAt,
              failures = 0, lastFailureAt = NULL;
            EXECUTE format('CREATE SEQUENCE IF NOT EXISTS {schema}.%I MINVALUE 0', switchboard_pin_counter(p_owner));
            PERFORM switchboard_pin_count(p_owner, 0, p_set_at);
          END IF;
        END $$;
        DO $$
        DECLARE station record;
        BEGIN
          FOR station IN SELECT role FROM switchboard_station_role LOOP
            EXECUTE format('REVOKE ALL ON ALL SEQUENCES IN SCHEMA {schema} FROM %I', station.role);
            EXECUTE format('REVOKE INSERT, UPDATE ON {schema}.account, {schema}.event FROM %I', station.role);
            EXECUTE format('GRANT INSERT (\(StationGrants.accountColumns)), UPDATE (\(StationGrants.accountColumns)) ON {schema}.account TO %I',
              station.role);
            EXECUTE format('GRANT INSERT (\(StationGrants.eventColumns)) ON {schema}.event TO %I', station.role);
          END LOOP;
        END $$;
        """,
        // v17: which machine runs a station's terminal.
        StoreSchema.stationInstanceSQL,
        // v18: nor does a station's role change what another station has
        // active: an identity of an account another station (and not this
        // one) has active is not moved, changed or removed, nor one moved
        // into it; such an account is not renamed; a new PIN goes only on
        // an account this station alone has active; a station's row names
        // only a session of its own.
        """
        CREATE FUNCTION switchboard_foreign(p_account bigint) RETURNS boolean LANGUAGE sql STABLE
          SET search_path = {schema}, pg_temp
          AS $$ SELECT p_account IS NOT NULL AND NOT switchboard_active_here(p_account)
                 AND EXISTS (SELECT 1 FROM session WHERE accountId = p_account AND NOT switchboard_acts_for(key)) $$;
        CREATE OR REPLACE FUNCTION switchboard_identity_guard() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
          SET search_path = {schema}, pg_temp AS $$
        BEGIN
          IF switchboard_station() IS NULL THEN
            RETURN coalesce(NEW, OLD);
          END IF;
          IF TG_OP <> 'INSERT' AND (switchboard_guarded(OLD.accountId) OR switchboard_foreign(OLD.accountId)) THEN
            RAISE EXCEPTION 'an identity of account % changes only with its PIN, and not while another station has it active', OLD.accountId
              USING ERRCODE = '42501';
          END IF;
          IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR OLD.accountId IS DISTINCT FROM NEW.accountId)
             AND (switchboard_guarded(NEW.accountId) OR switchboard_foreign(NEW.accountId)) THEN
            RAISE EXCEPTION 'an identity joins account % only with its PIN, and not while another station has it active', NEW.accountId
              USING ERRCODE = '42501';
          END IF;
          RETURN coalesce(NEW, OLD);
        END $$;
        DROP TRIGGER identity_takes_the_pin ON identity;
        CREATE TRIGGER identity_takes_the_pin BEFORE INSERT OR UPDATE OR DELETE ON identity
          FOR EACH ROW EXECUTE FUNCTION switchboard_identity_guard();
        CREATE OR REPLACE FUNCTION switchboard_account_guard() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
          SET search_path = {schema}, pg_temp AS $$
        BEGIN
          IF switchboard_station() IS NULL THEN
            RETURN coalesce(NEW, OLD);
          END IF;
          IF TG_OP = 'DELETE' AND (switchboard_guarded(OLD.id)
             OR EXISTS (SELECT 1 FROM session WHERE accountId = OLD.id AND NOT switchboard_acts_for(key))) THEN
            RAISE EXCEPTION 'account % is removed only with its PIN, and only where no other station has it active', OLD.id
              USING ERRCODE = '42501';
          END IF;
          IF TG_OP = 'UPDATE' AND (switchboard_guarded(OLD.id) OR switchboard_foreign(OLD.id)) THEN
            RAISE EXCEPTION 'account % changes only with its PIN, and not while another station has it active', OLD.id
              USING ERRCODE = '42501';
          END IF;
          RETURN coalesce(NEW, OLD);
        END $$;
        DROP TRIGGER account_takes_the_pin ON account;
        CREATE TRIGGER account_takes_the_pin BEFORE UPDATE OR DELETE ON account
          FOR EACH ROW EXECUTE FUNCTION switchboard_account_guard();
        CREATE OR REPLACE FUNCTION switchboard_pin_set(
          p_owner text, p_account bigint, p_algorithm text, p_rounds integer, p_salt bytea, p_hash bytea, p_set_at timestamptz
        ) RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp AS $$
        BEGIN
          PERFORM switchboard_pin_caller();
          IF p_owner IS DISTINCT FROM (CASE WHEN p_account IS NULL THEN 'operator' ELSE 'account:' || p_account END) THEN
            RAISE EXCEPTION 'a PIN''s owner and account disagree' USING ERRCODE = '22023';
          END IF;
          IF EXISTS (SELECT 1 FROM pin WHERE owner = p_owner) THEN
            IF NOT switchboard_pin_proven(p_owner) THEN
              RAISE EXCEPTION 'changing a PIN that is set takes it, or the operator PIN, first' USING ERRCODE = '42501';
            END IF;
          ELSIF switchboard_station() IS NOT NULL AND (p_account IS NULL OR NOT switchboard_active_here(p_account)
              OR EXISTS (SELECT 1 FROM session WHERE accountId = p_account AND NOT switchboard_acts_for(key))) THEN
            RAISE EXCEPTION 'a station sets a new PIN only for an account its own session alone has active (the operator PIN: the operator)'
              USING ERRCODE = '42501';
          END IF;
          IF p_hash IS NULL THEN
            DELETE FROM pin WHERE owner = p_owner;
            EXECUTE format('DROP SEQUENCE IF EXISTS {schema}.%I', switchboard_pin_counter(p_owner));
          ELSE
            INSERT INTO pin (owner, accountId, algorithm, rounds, salt, hash, setAt, failures, lastFailureAt)
            VALUES (p_owner, p_account, p_algorithm, p_rounds, p_salt, p_hash, p_set_at, 0, NULL)
            ON CONFLICT (owner) DO UPDATE SET accountId = excluded.accountId, algorithm = excluded.algorithm,
              rounds = excluded.rounds, salt = excluded.salt, hash = excluded.hash, setAt = excluded.setAt,
              failures = 0, lastFailureAt = NULL;
            EXECUTE format('CREATE SEQUENCE IF NOT EXISTS {schema}.%I MINVALUE 0', switchboard_pin_counter(p_owner));
            PERFORM switchboard_pin_count(p_owner, 0, p_set_at);
          END IF;
        END $$;
        ALTER POLICY rows_of_the_station ON station
          USING (switchboard_station() IS NULL OR station = switchboard_station())
          WITH CHECK (switchboard_station() IS NULL OR (station = switchboard_station() AND switchboard_acts_for(session)));
        """,
        // v19: how far a station's clock is from the fleet's.
        StoreSchema.stationClockSQL,
    ]
}
