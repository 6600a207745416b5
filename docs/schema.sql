-- The database schema built by the migrations in migrations/, dumped by pg_dump (schema only, no owners or
-- privileges). Generated: do not edit. Regenerate with `npm run build && npm run schema`; `npm run check` fails
-- when this file and the migrations disagree.
--
-- PostgreSQL database dump
--

--
-- Name: cube; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS cube WITH SCHEMA public;

--
-- Name: EXTENSION cube; Type: COMMENT; Schema: -; Owner: -
--

COMMENT ON EXTENSION cube IS 'data type for multidimensional cubes';

--
-- Name: earthdistance; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS earthdistance WITH SCHEMA public;

--
-- Name: EXTENSION earthdistance; Type: COMMENT; Schema: -; Owner: -
--

COMMENT ON EXTENSION earthdistance IS 'calculate great-circle distances on the surface of the Earth';

--
-- Name: assignments_take_task_deadline(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.assignments_take_task_deadline() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
      BEGIN
        NEW.task_deadline_at := (SELECT deadline_at FROM tasks WHERE id = NEW.task_id);
        RETURN NEW;
      END $$;

--
-- Name: ledger_append_only(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_append_only() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
      BEGIN
        RAISE EXCEPTION 'ledger history is append-only: % on % refused', TG_OP, TG_TABLE_NAME;
      END $$;

--
-- Name: ledger_journal_balances(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.ledger_journal_balances() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
      DECLARE total bigint;
      BEGIN
        SELECT COALESCE(sum(amount), 0) INTO total FROM ledger_postings WHERE journal_id = NEW.journal_id;
        IF total <> 0 THEN
          RAISE EXCEPTION 'ledger journal % does not balance (sum %)', NEW.journal_id, total;
        END IF;
        RETURN NULL;
      END $$;

--
-- Name: legwork_notify_auth(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.legwork_notify_auth() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
      BEGIN
        PERFORM pg_notify('legwork_auth', TG_TABLE_NAME);
        RETURN NULL;
      END $$;

--
-- Name: legwork_notify_deliveries(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.legwork_notify_deliveries() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
      BEGIN
        PERFORM pg_notify('legwork_deliveries', '');
        RETURN NULL;
      END $$;

--
-- Name: legwork_notify_events(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.legwork_notify_events() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
      BEGIN
        PERFORM pg_notify('legwork_events', '');
        RETURN NULL;
      END $$;

--
-- Name: nearby_cell(double precision, double precision); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.nearby_cell(latitude double precision, longitude double precision) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT (floor((latitude + 90) * 40) * 14401 + floor((longitude + 180) * 40))::integer $$;

--
-- Name: operator_audit_log_append_only(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.operator_audit_log_append_only() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
      BEGIN
        RAISE EXCEPTION 'the operator audit log is append-only: % refused', TG_OP;
      END $$;

--
-- Name: tasks_deadline_to_assignments(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.tasks_deadline_to_assignments() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
      BEGIN
        UPDATE assignments SET task_deadline_at = NEW.deadline_at WHERE task_id = NEW.id;
        RETURN NULL;
      END $$;

--
-- Name: admin_credits; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.admin_credits (
    journal_id bigint NOT NULL,
    admin_id uuid NOT NULL,
    agent_id uuid NOT NULL,
    amount_cents bigint NOT NULL,
    reason text NOT NULL,
    idempotency_key text,
    balance_after_cents bigint NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT admin_credits_amount_cents_check CHECK (((amount_cents >= 1) AND (amount_cents <= 100000000))),
    CONSTRAINT admin_credits_balance_after_cents_check CHECK ((balance_after_cents >= 0)),
    CONSTRAINT admin_credits_idempotency_key_check CHECK (((char_length(idempotency_key) >= 1) AND (char_length(idempotency_key) <= 255))),
    CONSTRAINT admin_credits_reason_check CHECK (((char_length(reason) >= 1) AND (char_length(reason) <= 500)))
);

--
-- Name: admin_recovery_codes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.admin_recovery_codes (
    admin_id uuid NOT NULL,
    code_hash text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone
);

--
-- Name: admins; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.admins (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    email text NOT NULL,
    password_hash text NOT NULL,
    failed_login_count integer DEFAULT 0 NOT NULL,
    failed_login_window_start timestamp with time zone,
    locked_until timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    totp_secret text,
    totp_enabled_at timestamp with time zone,
    totp_last_step bigint,
    totp_pending_secret text,
    totp_required boolean DEFAULT false NOT NULL,
    CONSTRAINT admins_totp_enabled CHECK (((totp_secret IS NULL) = (totp_enabled_at IS NULL)))
);

--
-- Name: agent_callback_secrets; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.agent_callback_secrets (
    agent_id uuid NOT NULL,
    secret_sealed text NOT NULL,
    created_at timestamp with time zone NOT NULL
);

--
-- Name: agent_rating_stats; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.agent_rating_stats (
    agent_id uuid NOT NULL,
    rating_count integer NOT NULL,
    rating_sum integer NOT NULL,
    CONSTRAINT agent_rating_stats_check CHECK (((rating_sum >= 0) AND (rating_sum <= (rating_count * 5)))),
    CONSTRAINT agent_rating_stats_rating_count_check CHECK ((rating_count >= 0))
);

--
-- Name: agent_ratings; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.agent_ratings (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    task_id uuid NOT NULL,
    agent_id uuid NOT NULL,
    worker_id uuid NOT NULL,
    rating integer NOT NULL,
    comment text,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT agent_ratings_comment_check CHECK ((char_length(comment) <= 500)),
    CONSTRAINT agent_ratings_rating_check CHECK (((rating >= 0) AND (rating <= 5)))
);

--
-- Name: agents; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.agents (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    email text NOT NULL,
    password_hash text NOT NULL,
    organization_name text,
    company_name text,
    account_status text DEFAULT 'active'::text NOT NULL,
    tier text DEFAULT 'standard'::text NOT NULL,
    rate_limit_per_minute integer DEFAULT 100 NOT NULL,
    rate_limit_per_day integer DEFAULT 10000 NOT NULL,
    fee_bps integer,
    max_concurrent_tasks integer DEFAULT 100 NOT NULL,
    failed_login_count integer DEFAULT 0 NOT NULL,
    failed_login_window_start timestamp with time zone,
    locked_until timestamp with time zone,
    last_used_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT agents_account_status_check CHECK ((account_status = ANY (ARRAY['active'::text, 'suspended'::text, 'closed'::text]))),
    CONSTRAINT agents_fee_bps_check CHECK (((fee_bps >= 0) AND (fee_bps <= 5000))),
    CONSTRAINT agents_max_concurrent_tasks_check CHECK ((max_concurrent_tasks > 0)),
    CONSTRAINT agents_rate_limit_per_day_check CHECK ((rate_limit_per_day > 0)),
    CONSTRAINT agents_rate_limit_per_minute_check CHECK ((rate_limit_per_minute > 0)),
    CONSTRAINT agents_tier_check CHECK ((tier = ANY (ARRAY['standard'::text, 'verified'::text, 'enterprise'::text])))
);

--
-- Name: api_keys; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.api_keys (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    agent_id uuid NOT NULL,
    key_hash text NOT NULL,
    secret_hash text NOT NULL,
    prefix text NOT NULL,
    name text NOT NULL,
    permissions text[] NOT NULL,
    is_active boolean DEFAULT true NOT NULL,
    usage_count bigint DEFAULT 0 NOT NULL,
    last_used_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    spend_caps jsonb,
    approval_ceiling_cents bigint,
    CONSTRAINT api_keys_approval_ceiling_nonnegative CHECK ((approval_ceiling_cents >= 0)),
    CONSTRAINT api_keys_spend_caps_object CHECK (((spend_caps IS NULL) OR (jsonb_typeof(spend_caps) = 'object'::text)))
);

--
-- Name: api_usage_daily; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.api_usage_daily (
    agent_id uuid NOT NULL,
    day date NOT NULL,
    requests bigint DEFAULT 0 NOT NULL
);

--
-- Name: assignment_messages; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.assignment_messages (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    seq bigint NOT NULL,
    assignment_id uuid NOT NULL,
    task_id uuid NOT NULL,
    sender text NOT NULL,
    body text NOT NULL,
    flags text[] DEFAULT '{}'::text[] NOT NULL,
    flag_reviewed_at timestamp with time zone,
    flag_reviewed_by uuid,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT assignment_messages_body_check CHECK (((char_length(body) >= 1) AND (char_length(body) <= 2000))),
    CONSTRAINT assignment_messages_flags_check CHECK ((flags <@ ARRAY['phone_number'::text, 'wechat_id'::text])),
    CONSTRAINT assignment_messages_sender_check CHECK ((sender = ANY (ARRAY['agent'::text, 'worker'::text, 'operator'::text])))
);

--
-- Name: assignment_messages_seq_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.assignment_messages_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: assignment_messages_seq_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.assignment_messages_seq_seq OWNED BY public.assignment_messages.seq;

--
-- Name: assignments; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.assignments (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    task_id uuid NOT NULL,
    worker_id uuid NOT NULL,
    status text NOT NULL,
    offered_at timestamp with time zone,
    offer_expires_at timestamp with time zone,
    accepted_at timestamp with time zone,
    started_at timestamp with time zone,
    submitted_at timestamp with time zone,
    reviewed_at timestamp with time zone,
    closed_at timestamp with time zone,
    result_data jsonb,
    worker_notes text,
    photos jsonb DEFAULT '[]'::jsonb NOT NULL,
    rating integer,
    quality_score numeric(2,1),
    feedback_text text,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    slot_settlement text,
    rejection_reason_code text,
    device_location jsonb,
    task_deadline_at timestamp with time zone NOT NULL,
    offer_ended_at timestamp with time zone,
    offer_distance_meters integer,
    offer_reputation numeric(3,2),
    offer_response numeric(4,3),
    review_required boolean DEFAULT false NOT NULL,
    review_note text,
    outcome text DEFAULT 'done'::text NOT NULL,
    unable_reason text,
    hold_cleared_at timestamp with time zone,
    dispute_window_ends_at timestamp with time zone,
    CONSTRAINT assignments_device_location_object CHECK ((jsonb_typeof(device_location) = 'object'::text)),
    CONSTRAINT assignments_feedback_text_check CHECK ((char_length(feedback_text) <= 500)),
    CONSTRAINT assignments_offer_distance_meters_check CHECK ((offer_distance_meters >= 0)),
    CONSTRAINT assignments_offer_reputation_check CHECK (((offer_reputation >= (0)::numeric) AND (offer_reputation <= (5)::numeric))),
    CONSTRAINT assignments_offer_response_check CHECK (((offer_response >= (0)::numeric) AND (offer_response <= (1)::numeric))),
    CONSTRAINT assignments_outcome_check CHECK ((outcome = ANY (ARRAY['done'::text, 'unable'::text]))),
    CONSTRAINT assignments_quality_score_check CHECK (((quality_score >= (0)::numeric) AND (quality_score <= (5)::numeric))),
    CONSTRAINT assignments_rating_check CHECK (((rating >= 1) AND (rating <= 5))),
    CONSTRAINT assignments_rejection_reason_code_check CHECK ((rejection_reason_code = ANY (ARRAY['wrong_location'::text, 'poor_quality'::text, 'incomplete'::text, 'not_as_described'::text, 'other'::text]))),
    CONSTRAINT assignments_rejection_reason_status CHECK (((rejection_reason_code IS NULL) OR (status = 'rejected'::text))),
    CONSTRAINT assignments_settlement_matches_status CHECK ((((status = 'approved'::text) AND (slot_settlement = 'released'::text)) OR ((status = 'rejected'::text) AND (slot_settlement = 'refunded'::text)) OR ((status = 'expired'::text) AND ((slot_settlement IS NULL) OR (slot_settlement = 'refunded'::text))) OR ((status = 'cancelled'::text) AND ((slot_settlement IS NULL) OR (slot_settlement = ANY (ARRAY['compensated'::text, 'refunded'::text])))) OR ((status = ANY (ARRAY['pending'::text, 'accepted'::text, 'in_progress'::text, 'submitted'::text, 'declined'::text, 'abandoned'::text])) AND (slot_settlement IS NULL)))),
    CONSTRAINT assignments_slot_settlement_check CHECK ((slot_settlement = ANY (ARRAY['released'::text, 'refunded'::text, 'compensated'::text]))),
    CONSTRAINT assignments_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'accepted'::text, 'in_progress'::text, 'submitted'::text, 'approved'::text, 'rejected'::text, 'declined'::text, 'expired'::text, 'abandoned'::text, 'cancelled'::text]))),
    CONSTRAINT assignments_unable_has_reason CHECK (((outcome = 'unable'::text) = (unable_reason IS NOT NULL))),
    CONSTRAINT assignments_unable_reason_check CHECK ((unable_reason = ANY (ARRAY['closed'::text, 'not_found'::text, 'no_access'::text, 'unsafe'::text, 'other'::text])))
);

--
-- Name: consent_versions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.consent_versions (
    kind text NOT NULL,
    version integer NOT NULL,
    title_en text NOT NULL,
    title_zh text NOT NULL,
    text_en text NOT NULL,
    text_zh text NOT NULL,
    published_at timestamp with time zone NOT NULL,
    CONSTRAINT consent_versions_kind_check CHECK ((kind = 'precise_location'::text)),
    CONSTRAINT consent_versions_version_check CHECK ((version >= 1))
);

--
-- Name: disputes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.disputes (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    assignment_id uuid NOT NULL,
    task_id uuid NOT NULL,
    agent_id uuid NOT NULL,
    worker_id uuid NOT NULL,
    statement text NOT NULL,
    photo_urls text[] DEFAULT '{}'::text[] NOT NULL,
    opened_at timestamp with time zone NOT NULL,
    response_due_at timestamp with time zone NOT NULL,
    response_statement text,
    response_photo_urls text[],
    answered_at timestamp with time zone,
    outcome text,
    worker_percent smallint,
    decision_note text,
    decided_by uuid,
    decided_at timestamp with time zone,
    worker_cents integer,
    fee_cents integer,
    owed_cents integer,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT disputes_check CHECK (((answered_at IS NULL) = (response_statement IS NULL))),
    CONSTRAINT disputes_check1 CHECK (((decided_at IS NULL) = (outcome IS NULL))),
    CONSTRAINT disputes_check2 CHECK (((outcome = 'split'::text) = (worker_percent IS NOT NULL))),
    CONSTRAINT disputes_decision_note_check CHECK ((char_length(decision_note) <= 2000)),
    CONSTRAINT disputes_fee_cents_check CHECK ((fee_cents >= 0)),
    CONSTRAINT disputes_outcome_check CHECK ((outcome = ANY (ARRAY['upheld'::text, 'overturned'::text, 'split'::text]))),
    CONSTRAINT disputes_owed_cents_check CHECK ((owed_cents >= 0)),
    CONSTRAINT disputes_response_statement_check CHECK (((char_length(response_statement) >= 1) AND (char_length(response_statement) <= 2000))),
    CONSTRAINT disputes_statement_check CHECK (((char_length(statement) >= 1) AND (char_length(statement) <= 2000))),
    CONSTRAINT disputes_worker_cents_check CHECK ((worker_cents >= 0)),
    CONSTRAINT disputes_worker_percent_check CHECK (((worker_percent >= 1) AND (worker_percent <= 99)))
);

--
-- Name: events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.events (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    name text NOT NULL,
    agent_id uuid,
    worker_id uuid,
    task_id uuid,
    data jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamp with time zone NOT NULL,
    published_at timestamp with time zone,
    seq bigint NOT NULL
);

--
-- Name: events_seq_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.events ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.events_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: idempotency_keys; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.idempotency_keys (
    agent_id uuid NOT NULL,
    key text NOT NULL,
    request_hash text NOT NULL,
    status_code integer,
    response jsonb,
    created_at timestamp with time zone NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    owner bigint,
    claim_token uuid,
    scope text DEFAULT 'request'::text NOT NULL,
    CONSTRAINT idempotency_keys_key_check CHECK (((char_length(key) >= 1) AND (char_length(key) <= 255))),
    CONSTRAINT idempotency_keys_scope_check CHECK ((scope = ANY (ARRAY['request'::text, 'task'::text, 'admin_credit'::text])))
);

--
-- Name: ledger_accounts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ledger_accounts (
    id bigint NOT NULL,
    code text NOT NULL,
    kind text NOT NULL,
    owner_id uuid,
    agent_id uuid,
    balance bigint DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT ledger_accounts_credit_not_positive CHECK (((kind <> 'platform_credit'::text) OR (balance <= 0))),
    CONSTRAINT ledger_accounts_kind_check CHECK ((kind = ANY (ARRAY['agent_available'::text, 'task_escrow'::text, 'worker_available'::text, 'worker_withdrawing'::text, 'platform_fees'::text, 'provider_clearing'::text, 'agent_owed'::text, 'platform_credit'::text, 'platform_advances'::text]))),
    CONSTRAINT ledger_accounts_non_negative CHECK (((kind = ANY (ARRAY['provider_clearing'::text, 'platform_credit'::text, 'platform_advances'::text])) OR (balance >= 0)))
);

--
-- Name: ledger_accounts_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.ledger_accounts_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: ledger_accounts_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.ledger_accounts_id_seq OWNED BY public.ledger_accounts.id;

--
-- Name: ledger_journals; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ledger_journals (
    id bigint NOT NULL,
    reference text NOT NULL,
    kind text NOT NULL,
    agent_id uuid,
    worker_id uuid,
    task_id uuid,
    order_id text,
    description text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT ledger_journals_kind_check CHECK ((kind = ANY (ARRAY['deposit'::text, 'escrow_hold'::text, 'slot_release'::text, 'slot_refund'::text, 'cancel_compensation'::text, 'withdrawal_start'::text, 'withdrawal_complete'::text, 'withdrawal_fail'::text, 'payer_refund'::text, 'payer_refund_reversal'::text, 'dispute_settlement'::text, 'owed_repayment'::text])))
);

--
-- Name: ledger_journals_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.ledger_journals_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: ledger_journals_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.ledger_journals_id_seq OWNED BY public.ledger_journals.id;

--
-- Name: ledger_postings; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ledger_postings (
    id bigint NOT NULL,
    journal_id bigint NOT NULL,
    account_id bigint NOT NULL,
    amount bigint NOT NULL,
    CONSTRAINT ledger_postings_amount_check CHECK ((amount <> 0))
);

--
-- Name: ledger_postings_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.ledger_postings_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: ledger_postings_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.ledger_postings_id_seq OWNED BY public.ledger_postings.id;

--
-- Name: message_read_markers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.message_read_markers (
    assignment_id uuid NOT NULL,
    reader text NOT NULL,
    last_read_seq bigint NOT NULL,
    CONSTRAINT message_read_markers_last_read_seq_check CHECK ((last_read_seq >= 0)),
    CONSTRAINT message_read_markers_reader_check CHECK ((reader = ANY (ARRAY['agent'::text, 'worker'::text])))
);

--
-- Name: oauth_clients; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.oauth_clients (
    client_id text NOT NULL,
    kind text NOT NULL,
    client_name text,
    client_uri text,
    redirect_uris text[] NOT NULL,
    token_endpoint_auth_method text NOT NULL,
    secret_hash text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    expires_at timestamp with time zone,
    CONSTRAINT oauth_clients_check CHECK (((token_endpoint_auth_method = 'none'::text) = (secret_hash IS NULL))),
    CONSTRAINT oauth_clients_kind_check CHECK ((kind = ANY (ARRAY['registered'::text, 'metadata_document'::text]))),
    CONSTRAINT oauth_clients_redirect_uris_check CHECK (((cardinality(redirect_uris) >= 1) AND (cardinality(redirect_uris) <= 10))),
    CONSTRAINT oauth_clients_token_endpoint_auth_method_check CHECK ((token_endpoint_auth_method = ANY (ARRAY['none'::text, 'client_secret_post'::text, 'client_secret_basic'::text])))
);

--
-- Name: oauth_codes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.oauth_codes (
    code_hash text NOT NULL,
    grant_id uuid NOT NULL,
    client_id text NOT NULL,
    redirect_uri text NOT NULL,
    code_challenge text NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone
);

--
-- Name: oauth_grants; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.oauth_grants (
    id uuid NOT NULL,
    agent_id uuid NOT NULL,
    client_id text NOT NULL,
    client_name text,
    client_host text NOT NULL,
    permissions text[] NOT NULL,
    spend_caps jsonb,
    ceiling_cents bigint,
    created_at timestamp with time zone NOT NULL,
    last_used_at timestamp with time zone,
    revoked_at timestamp with time zone,
    CONSTRAINT oauth_grants_ceiling_cents_check CHECK (((ceiling_cents IS NULL) OR (ceiling_cents > 0)))
);

--
-- Name: oauth_refresh_tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.oauth_refresh_tokens (
    id uuid NOT NULL,
    family_id uuid NOT NULL,
    grant_id uuid NOT NULL,
    token_hash text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone,
    revoked_at timestamp with time zone
);

--
-- Name: oauth_requests; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.oauth_requests (
    id uuid NOT NULL,
    handle_hash text NOT NULL,
    client_id text NOT NULL,
    redirect_uri text NOT NULL,
    state text,
    code_challenge text NOT NULL,
    permissions text[] NOT NULL,
    created_at timestamp with time zone NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    decided_at timestamp with time zone
);

--
-- Name: offer_deliveries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.offer_deliveries (
    assignment_id uuid NOT NULL,
    channel text NOT NULL,
    status text NOT NULL,
    sent_at timestamp with time zone NOT NULL,
    detail text,
    attempts integer DEFAULT 1 NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT offer_deliveries_attempts_check CHECK ((attempts >= 1)),
    CONSTRAINT offer_deliveries_channel_check CHECK ((channel = ANY (ARRAY['socket'::text, 'push'::text, 'sms'::text]))),
    CONSTRAINT offer_deliveries_detail_check CHECK ((char_length(detail) <= 200)),
    CONSTRAINT offer_deliveries_status_check CHECK ((status = ANY (ARRAY['sent'::text, 'no_connection'::text, 'failed'::text, 'skipped'::text])))
);

--
-- Name: operator_audit_log; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.operator_audit_log (
    id bigint NOT NULL,
    occurred_at timestamp with time zone NOT NULL,
    source text NOT NULL,
    admin_id uuid,
    session_id uuid,
    action text NOT NULL,
    target_type text NOT NULL,
    target_id text NOT NULL,
    before jsonb,
    after jsonb,
    request_id text,
    ip inet,
    CONSTRAINT operator_audit_log_action_check CHECK ((action ~ '^[a-z_]+\.[a-z_]+$'::text)),
    CONSTRAINT operator_audit_log_check CHECK (((source = 'cli'::text) OR (admin_id IS NOT NULL))),
    CONSTRAINT operator_audit_log_request_id_check CHECK ((char_length(request_id) <= 128)),
    CONSTRAINT operator_audit_log_source_check CHECK ((source = ANY (ARRAY['api'::text, 'cli'::text]))),
    CONSTRAINT operator_audit_log_target_id_check CHECK (((char_length(target_id) >= 1) AND (char_length(target_id) <= 100))),
    CONSTRAINT operator_audit_log_target_type_check CHECK (((char_length(target_type) >= 1) AND (char_length(target_type) <= 40)))
);

--
-- Name: operator_audit_log_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.operator_audit_log ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.operator_audit_log_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: payment_orders; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.payment_orders (
    id text NOT NULL,
    agent_id uuid NOT NULL,
    task_id uuid,
    amount_cents bigint NOT NULL,
    currency text NOT NULL,
    fx_rate_micros bigint,
    provider_amount_cents bigint NOT NULL,
    payment_method text NOT NULL,
    provider text NOT NULL,
    payment_type text,
    status text NOT NULL,
    refunded_cents bigint DEFAULT 0 NOT NULL,
    provider_refunded_cents bigint DEFAULT 0 NOT NULL,
    payment_url text,
    qr_code_url text,
    jsapi_params jsonb,
    return_url text,
    callback_url text,
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    provider_txn_id text,
    failure_reason text,
    expires_at timestamp with time zone NOT NULL,
    paid_at timestamp with time zone,
    closed_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT payment_orders_amount_cents_check CHECK ((amount_cents > 0)),
    CONSTRAINT payment_orders_closed CHECK (((status = ANY (ARRAY['failed'::text, 'expired'::text])) = (closed_at IS NOT NULL))),
    CONSTRAINT payment_orders_currency_check CHECK ((currency = ANY (ARRAY['CNY'::text, 'USD'::text]))),
    CONSTRAINT payment_orders_expiry CHECK ((expires_at > created_at)),
    CONSTRAINT payment_orders_fx CHECK ((((currency = 'CNY'::text) AND (fx_rate_micros IS NULL) AND (provider_amount_cents = amount_cents)) OR ((currency = 'USD'::text) AND (fx_rate_micros IS NOT NULL)))),
    CONSTRAINT payment_orders_fx_rate_micros_check CHECK ((fx_rate_micros > 0)),
    CONSTRAINT payment_orders_id_check CHECK ((id ~ '^[0-9A-Za-z_-]{6,32}$'::text)),
    CONSTRAINT payment_orders_method_provider CHECK ((((payment_method = ANY (ARRAY['alipay'::text, 'card'::text])) AND (provider = 'alipay'::text) AND (payment_type IS NOT NULL) AND (payment_type = ANY (ARRAY['page'::text, 'wap'::text, 'qr'::text]))) OR ((payment_method = 'wechat'::text) AND (provider = 'wechat'::text) AND (payment_type IS NOT NULL) AND (payment_type = ANY (ARRAY['native'::text, 'jsapi'::text, 'h5'::text]))) OR ((payment_method = 'bank_transfer'::text) AND (provider = 'bank'::text) AND (payment_type IS NULL)))),
    CONSTRAINT payment_orders_paid CHECK (((status = ANY (ARRAY['completed'::text, 'refunded'::text])) = (paid_at IS NOT NULL))),
    CONSTRAINT payment_orders_payment_method_check CHECK ((payment_method = ANY (ARRAY['alipay'::text, 'wechat'::text, 'card'::text, 'bank_transfer'::text]))),
    CONSTRAINT payment_orders_payment_type_check CHECK ((payment_type = ANY (ARRAY['page'::text, 'wap'::text, 'qr'::text, 'native'::text, 'jsapi'::text, 'h5'::text]))),
    CONSTRAINT payment_orders_provider_amount_cents_check CHECK ((provider_amount_cents > 0)),
    CONSTRAINT payment_orders_provider_check CHECK ((provider = ANY (ARRAY['alipay'::text, 'wechat'::text, 'bank'::text]))),
    CONSTRAINT payment_orders_refund_bounds CHECK ((((refunded_cents >= 0) AND (refunded_cents <= amount_cents)) AND ((provider_refunded_cents >= 0) AND (provider_refunded_cents <= provider_amount_cents)) AND ((refunded_cents = 0) OR (status = ANY (ARRAY['completed'::text, 'refunded'::text]))) AND ((status <> 'refunded'::text) OR (refunded_cents = amount_cents)))),
    CONSTRAINT payment_orders_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'processing'::text, 'completed'::text, 'failed'::text, 'expired'::text, 'refunded'::text])))
);

--
-- Name: payment_refunds; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.payment_refunds (
    id text NOT NULL,
    order_id text NOT NULL,
    agent_id uuid NOT NULL,
    amount_cents bigint NOT NULL,
    provider_amount_cents bigint NOT NULL,
    reason_code text NOT NULL,
    reason text NOT NULL,
    refund_method text NOT NULL,
    status text NOT NULL,
    provider_refund_id text,
    failure_reason text,
    completed_at timestamp with time zone,
    failed_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT payment_refunds_amount_cents_check CHECK ((amount_cents > 0)),
    CONSTRAINT payment_refunds_completed CHECK (((status = 'completed'::text) = (completed_at IS NOT NULL))),
    CONSTRAINT payment_refunds_failed CHECK (((status = 'failed'::text) = (failed_at IS NOT NULL))),
    CONSTRAINT payment_refunds_id_check CHECK ((id ~ '^[0-9A-Za-z_-]{6,64}$'::text)),
    CONSTRAINT payment_refunds_provider_amount_cents_check CHECK ((provider_amount_cents > 0)),
    CONSTRAINT payment_refunds_reason_check CHECK (((char_length(reason) >= 1) AND (char_length(reason) <= 500))),
    CONSTRAINT payment_refunds_reason_code_check CHECK ((reason_code = ANY (ARRAY['task_cancelled'::text, 'quality_issue'::text, 'task_failed'::text, 'duplicate_payment'::text, 'other'::text]))),
    CONSTRAINT payment_refunds_refund_method_check CHECK ((refund_method = 'original'::text)),
    CONSTRAINT payment_refunds_status_check CHECK ((status = ANY (ARRAY['processing'::text, 'completed'::text, 'failed'::text])))
);

--
-- Name: photo_hashes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.photo_hashes (
    id bigint NOT NULL,
    phash bigint NOT NULL,
    band0 integer NOT NULL,
    band1 integer NOT NULL,
    band2 integer NOT NULL,
    band3 integer NOT NULL,
    worker_id uuid NOT NULL,
    agent_id uuid NOT NULL,
    task_id uuid NOT NULL,
    assignment_id uuid NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT photo_hashes_band0_check CHECK (((band0 >= 0) AND (band0 <= 65535))),
    CONSTRAINT photo_hashes_band1_check CHECK (((band1 >= 0) AND (band1 <= 65535))),
    CONSTRAINT photo_hashes_band2_check CHECK (((band2 >= 0) AND (band2 <= 65535))),
    CONSTRAINT photo_hashes_band3_check CHECK (((band3 >= 0) AND (band3 <= 65535)))
);

--
-- Name: photo_hashes_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.photo_hashes_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: photo_hashes_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.photo_hashes_id_seq OWNED BY public.photo_hashes.id;

--
-- Name: position_reports; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.position_reports (
    id bigint NOT NULL,
    worker_id uuid NOT NULL,
    latitude double precision NOT NULL,
    longitude double precision NOT NULL,
    accuracy_m real,
    source text NOT NULL,
    reported_at timestamp with time zone NOT NULL,
    CONSTRAINT position_reports_accuracy_m_check CHECK ((accuracy_m >= (0)::double precision)),
    CONSTRAINT position_reports_latitude_check CHECK (((latitude >= ('-90'::integer)::double precision) AND (latitude <= (90)::double precision))),
    CONSTRAINT position_reports_longitude_check CHECK (((longitude >= ('-180'::integer)::double precision) AND (longitude <= (180)::double precision))),
    CONSTRAINT position_reports_source_check CHECK ((source = ANY (ARRAY['availability'::text, 'submission_device'::text, 'submission_photo'::text])))
);

--
-- Name: position_reports_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.position_reports ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.position_reports_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

--
-- Name: proof_reviews; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.proof_reviews (
    assignment_id uuid NOT NULL,
    task_id uuid NOT NULL,
    worker_id uuid NOT NULL,
    outcome text NOT NULL,
    decided_by text NOT NULL,
    admin_id uuid,
    note text,
    suspension_id uuid,
    decided_at timestamp with time zone NOT NULL,
    reversed_at timestamp with time zone,
    CONSTRAINT proof_reviews_check CHECK (((decided_by = 'operator'::text) = (admin_id IS NOT NULL))),
    CONSTRAINT proof_reviews_decided_by_check CHECK ((decided_by = ANY (ARRAY['operator'::text, 'agent'::text]))),
    CONSTRAINT proof_reviews_outcome_check CHECK ((outcome = ANY (ARRAY['confirmed_fraud'::text, 'cleared'::text, 'agent_approved'::text, 'agent_rejected'::text])))
);

--
-- Name: push_subscriptions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.push_subscriptions (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    worker_id uuid NOT NULL,
    endpoint text NOT NULL,
    p256dh text NOT NULL,
    auth text NOT NULL,
    locale text NOT NULL,
    expires_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT push_subscriptions_auth_check CHECK ((char_length(auth) = 22)),
    CONSTRAINT push_subscriptions_endpoint_check CHECK (((char_length(endpoint) >= 1) AND (char_length(endpoint) <= 2048))),
    CONSTRAINT push_subscriptions_locale_check CHECK ((locale = ANY (ARRAY['zh-CN'::text, 'en'::text]))),
    CONSTRAINT push_subscriptions_p256dh_check CHECK ((char_length(p256dh) = 87))
);

--
-- Name: refresh_tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.refresh_tokens (
    id uuid NOT NULL,
    family_id uuid NOT NULL,
    subject_kind text NOT NULL,
    subject_id uuid NOT NULL,
    token_hash text NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    used_at timestamp with time zone,
    revoked_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    session_started_at timestamp with time zone NOT NULL,
    CONSTRAINT refresh_tokens_subject_kind_check CHECK ((subject_kind = ANY (ARRAY['agent'::text, 'worker'::text, 'admin'::text])))
);

--
-- Name: sandbox_actions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sandbox_actions (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    worker_id uuid NOT NULL,
    task_id uuid NOT NULL,
    assignment_id uuid NOT NULL,
    step text NOT NULL,
    due_at timestamp with time zone NOT NULL,
    done_at timestamp with time zone,
    outcome text,
    detail jsonb,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT sandbox_actions_check CHECK (((done_at IS NULL) = (outcome IS NULL))),
    CONSTRAINT sandbox_actions_step_check CHECK ((step = ANY (ARRAY['accept'::text, 'decline'::text, 'start'::text, 'submit'::text, 'abandon'::text, 'unable'::text, 'dispute'::text])))
);

--
-- Name: sandbox_sms; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sandbox_sms (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    phone_number text NOT NULL,
    template text NOT NULL,
    params jsonb NOT NULL,
    text text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT sandbox_sms_template_check CHECK ((template = ANY (ARRAY['verification_code'::text, 'offer'::text, 'money'::text])))
);

--
-- Name: sandbox_workers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sandbox_workers (
    worker_id uuid NOT NULL,
    agent_id uuid NOT NULL,
    name text NOT NULL,
    persona text,
    behavior jsonb NOT NULL,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    deleted_at timestamp with time zone,
    CONSTRAINT sandbox_workers_name_check CHECK (((char_length(name) >= 1) AND (char_length(name) <= 50))),
    CONSTRAINT sandbox_workers_persona_check CHECK ((persona = ANY (ARRAY['reliable'::text, 'slow'::text, 'abandons'::text, 'declines_offers'::text, 'photo_too_far'::text, 'no_exif'::text, 'wrong_answers'::text, 'reuses_photo'::text, 'edited_exif'::text, 'teleports'::text, 'disputes_rejection'::text, 'reports_unable'::text])))
);

--
-- Name: schema_migrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_migrations (
    id integer NOT NULL,
    "timestamp" bigint NOT NULL,
    name character varying NOT NULL
);

--
-- Name: schema_migrations_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.schema_migrations_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

--
-- Name: schema_migrations_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.schema_migrations_id_seq OWNED BY public.schema_migrations.id;

--
-- Name: sms_codes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sms_codes (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    phone_number text NOT NULL,
    purpose text NOT NULL,
    code_hash text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    consumed_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    superseded_at timestamp with time zone,
    CONSTRAINT sms_codes_attempts_check CHECK (((attempts >= 0) AND (attempts <= 5))),
    CONSTRAINT sms_codes_expiry_check CHECK ((expires_at > created_at)),
    CONSTRAINT sms_codes_phone_check CHECK ((phone_number ~ '^1[3-9][0-9]{9}$'::text)),
    CONSTRAINT sms_codes_purpose_check CHECK ((purpose = ANY (ARRAY['register'::text, 'login'::text, 'reset_password'::text])))
);

--
-- Name: spend_approvals; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.spend_approvals (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    agent_id uuid NOT NULL,
    spender_kind text NOT NULL,
    spender_id uuid NOT NULL,
    body_hash text NOT NULL,
    task_body jsonb NOT NULL,
    total_cents bigint NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    decided_at timestamp with time zone,
    used_at timestamp with time zone,
    task_id uuid,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT spend_approvals_decided_has_time CHECK (((status = 'pending'::text) = (decided_at IS NULL))),
    CONSTRAINT spend_approvals_spender_kind_check CHECK ((spender_kind = ANY (ARRAY['api_key'::text, 'grant'::text]))),
    CONSTRAINT spend_approvals_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'approved'::text, 'declined'::text, 'used'::text]))),
    CONSTRAINT spend_approvals_total_cents_check CHECK ((total_cents > 0)),
    CONSTRAINT spend_approvals_used_has_time CHECK (((status = 'used'::text) = (used_at IS NOT NULL)))
);

--
-- Name: task_feedback; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.task_feedback (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    task_id uuid NOT NULL,
    agent_id uuid NOT NULL,
    assignment_ids uuid[] NOT NULL,
    accept_result boolean NOT NULL,
    rating integer,
    quality_score numeric(2,1),
    feedback_text text,
    created_at timestamp with time zone NOT NULL,
    reason_code text,
    CONSTRAINT task_feedback_acceptance_scored CHECK (((NOT accept_result) OR ((rating IS NOT NULL) AND (quality_score IS NOT NULL)))),
    CONSTRAINT task_feedback_assignment_ids_check CHECK ((cardinality(assignment_ids) >= 1)),
    CONSTRAINT task_feedback_feedback_text_check CHECK ((char_length(feedback_text) <= 500)),
    CONSTRAINT task_feedback_quality_score_check CHECK (((quality_score >= (0)::numeric) AND (quality_score <= (5)::numeric))),
    CONSTRAINT task_feedback_rating_check CHECK (((rating >= 1) AND (rating <= 5))),
    CONSTRAINT task_feedback_reason_code_check CHECK ((reason_code = ANY (ARRAY['wrong_location'::text, 'poor_quality'::text, 'incomplete'::text, 'not_as_described'::text, 'other'::text])))
);

--
-- Name: task_reports; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.task_reports (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    task_id uuid NOT NULL,
    agent_id uuid NOT NULL,
    worker_id uuid NOT NULL,
    reason text NOT NULL,
    note text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    outcome text,
    suspend_agent boolean,
    decision_note text,
    decided_by uuid,
    decided_at timestamp with time zone,
    CONSTRAINT task_reports_check CHECK (((decided_at IS NULL) = (outcome IS NULL))),
    CONSTRAINT task_reports_check1 CHECK (((decided_at IS NULL) = (suspend_agent IS NULL))),
    CONSTRAINT task_reports_decision_note_check CHECK (((char_length(decision_note) >= 1) AND (char_length(decision_note) <= 2000))),
    CONSTRAINT task_reports_note_check CHECK (((char_length(note) >= 1) AND (char_length(note) <= 2000))),
    CONSTRAINT task_reports_outcome_check CHECK ((outcome = ANY (ARRAY['cancel_task'::text, 'dismiss'::text]))),
    CONSTRAINT task_reports_reason_check CHECK ((reason = ANY (ARRAY['illegal'::text, 'unsafe'::text, 'misleading'::text])))
);

--
-- Name: tasks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.tasks (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    agent_id uuid NOT NULL,
    title text NOT NULL,
    description text NOT NULL,
    task_type text NOT NULL,
    latitude double precision NOT NULL,
    longitude double precision NOT NULL,
    address text,
    max_distance_meters integer DEFAULT 1000 NOT NULL,
    budget_cents bigint NOT NULL,
    max_workers integer DEFAULT 1 NOT NULL,
    fee_bps integer NOT NULL,
    payout_cents bigint NOT NULL,
    fee_cents bigint NOT NULL,
    total_cents bigint NOT NULL,
    required_skills text[] DEFAULT '{}'::text[] NOT NULL,
    min_reputation numeric(2,1),
    metadata jsonb DEFAULT '{}'::jsonb NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    deadline_at timestamp with time zone NOT NULL,
    estimated_completion_at timestamp with time zone NOT NULL,
    completed_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    closed_slots integer DEFAULT 0 NOT NULL,
    intake_closed_at timestamp with time zone,
    deadline_processed_at timestamp with time zone,
    cancelled_at timestamp with time zone,
    open_slots integer DEFAULT 0 NOT NULL,
    test_clock_id uuid,
    location_proof text DEFAULT 'photo_gps'::text NOT NULL,
    answer_schema json,
    review_policy jsonb,
    agreement_reached_at timestamp with time zone,
    unable_payout_percent integer DEFAULT 20 NOT NULL,
    created_by_api_key_id uuid,
    created_by_grant_id uuid,
    CONSTRAINT tasks_agreement_needs_policy CHECK (((agreement_reached_at IS NULL) OR (review_policy IS NOT NULL))),
    CONSTRAINT tasks_answer_schema_object CHECK (((answer_schema IS NULL) OR ((json_typeof(answer_schema) = 'object'::text) AND (octet_length((answer_schema)::text) <= 16384)))),
    CONSTRAINT tasks_budget_cents_check CHECK ((budget_cents >= 1000)),
    CONSTRAINT tasks_cancelled_status CHECK (((cancelled_at IS NULL) OR (status = 'cancelled'::text))),
    CONSTRAINT tasks_closed_slots_range CHECK (((closed_slots >= 0) AND (closed_slots <= max_workers))),
    CONSTRAINT tasks_cost_split CHECK ((((payout_cents + fee_cents) = budget_cents) AND (total_cents = (budget_cents * max_workers)))),
    CONSTRAINT tasks_fee_bps_check CHECK (((fee_bps >= 0) AND (fee_bps <= 10000))),
    CONSTRAINT tasks_fee_cents_check CHECK ((fee_cents >= 0)),
    CONSTRAINT tasks_latitude_check CHECK (((latitude >= ('-90'::integer)::double precision) AND (latitude <= (90)::double precision))),
    CONSTRAINT tasks_location_proof_check CHECK ((location_proof = ANY (ARRAY['photo_gps'::text, 'photo_or_device_gps'::text]))),
    CONSTRAINT tasks_longitude_check CHECK (((longitude >= ('-180'::integer)::double precision) AND (longitude <= (180)::double precision))),
    CONSTRAINT tasks_max_distance_meters_check CHECK ((max_distance_meters > 0)),
    CONSTRAINT tasks_max_workers_check CHECK (((max_workers >= 1) AND (max_workers <= 10))),
    CONSTRAINT tasks_min_reputation_check CHECK (((min_reputation >= (0)::numeric) AND (min_reputation <= (5)::numeric))),
    CONSTRAINT tasks_open_slots_range CHECK (((open_slots >= 0) AND (open_slots <= max_workers))),
    CONSTRAINT tasks_payout_cents_check CHECK ((payout_cents >= 0)),
    CONSTRAINT tasks_review_policy_needs_schema CHECK (((review_policy IS NULL) OR ((answer_schema IS NOT NULL) AND ((review_policy ->> 'type'::text) = 'agreement'::text)))),
    CONSTRAINT tasks_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'assigned'::text, 'in_progress'::text, 'submitted'::text, 'completed'::text, 'failed'::text, 'cancelled'::text]))),
    CONSTRAINT tasks_task_type_check CHECK ((task_type = ANY (ARRAY['photo'::text, 'verification'::text, 'data_collection'::text, 'delivery'::text, 'other'::text]))),
    CONSTRAINT tasks_title_check CHECK (((char_length(title) >= 1) AND (char_length(title) <= 200))),
    CONSTRAINT tasks_unable_payout_percent_range CHECK (((unable_payout_percent >= 0) AND (unable_payout_percent <= 50)))
);

--
-- Name: test_clocks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.test_clocks (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    agent_id uuid NOT NULL,
    name text,
    frozen_time timestamp with time zone NOT NULL,
    status text DEFAULT 'ready'::text NOT NULL,
    advancing_since timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    deleted_at timestamp with time zone,
    CONSTRAINT test_clocks_check CHECK (((status = 'advancing'::text) = (advancing_since IS NOT NULL))),
    CONSTRAINT test_clocks_name_check CHECK (((name IS NULL) OR ((char_length(name) >= 1) AND (char_length(name) <= 100)))),
    CONSTRAINT test_clocks_status_check CHECK ((status = ANY (ARRAY['ready'::text, 'advancing'::text])))
);

--
-- Name: uploads; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.uploads (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    worker_id uuid NOT NULL,
    category text NOT NULL,
    storage_key text NOT NULL,
    original_name text,
    content_type text NOT NULL,
    size_bytes integer NOT NULL,
    sha256 text NOT NULL,
    latitude double precision,
    longitude double precision,
    taken_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    phash bigint,
    exif jsonb,
    CONSTRAINT uploads_category_check CHECK ((category = ANY (ARRAY['task-proofs'::text, 'task-photos'::text]))),
    CONSTRAINT uploads_content_type_check CHECK ((content_type = ANY (ARRAY['image/jpeg'::text, 'image/png'::text, 'application/pdf'::text, 'video/mp4'::text, 'video/quicktime'::text]))),
    CONSTRAINT uploads_gps_pair CHECK (((latitude IS NULL) = (longitude IS NULL))),
    CONSTRAINT uploads_latitude_check CHECK (((latitude >= ('-90'::integer)::double precision) AND (latitude <= (90)::double precision))),
    CONSTRAINT uploads_longitude_check CHECK (((longitude >= ('-180'::integer)::double precision) AND (longitude <= (180)::double precision))),
    CONSTRAINT uploads_original_name_check CHECK ((char_length(original_name) <= 255)),
    CONSTRAINT uploads_sha256_check CHECK ((sha256 ~ '^[0-9a-f]{64}$'::text)),
    CONSTRAINT uploads_size_bytes_check CHECK ((size_bytes > 0)),
    CONSTRAINT uploads_storage_key_check CHECK ((storage_key ~ '^[a-z-]+/[0-9]{4}-[0-9]{2}-[0-9]{2}/[A-Za-z0-9_-]+[.][a-z0-9]+$'::text))
);

--
-- Name: webhook_deliveries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webhook_deliveries (
    id uuid NOT NULL,
    agent_id uuid NOT NULL,
    endpoint_id uuid,
    url text NOT NULL,
    kind text NOT NULL,
    event_id uuid NOT NULL,
    event_name text NOT NULL,
    event_seq bigint,
    task_id uuid,
    ordering_key text,
    body text NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone,
    claim_token uuid,
    last_attempt_at timestamp with time zone,
    last_status_code integer,
    last_latency_ms integer,
    last_error text,
    delivered_at timestamp with time zone,
    finished_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    CONSTRAINT webhook_deliveries_attempts_check CHECK ((attempts >= 0)),
    CONSTRAINT webhook_deliveries_due CHECK (((status = 'pending'::text) = (next_attempt_at IS NOT NULL))),
    CONSTRAINT webhook_deliveries_kind_check CHECK ((kind = ANY (ARRAY['event'::text, 'redelivery'::text, 'test'::text]))),
    CONSTRAINT webhook_deliveries_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'delivered'::text, 'failed'::text, 'cancelled'::text]))),
    CONSTRAINT webhook_deliveries_target CHECK (((endpoint_id IS NOT NULL) OR (kind = 'event'::text)))
);

--
-- Name: webhook_delivery_attempts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webhook_delivery_attempts (
    delivery_id uuid NOT NULL,
    attempt integer NOT NULL,
    started_at timestamp with time zone NOT NULL,
    finished_at timestamp with time zone,
    status_code integer,
    latency_ms integer,
    error text,
    CONSTRAINT webhook_delivery_attempts_attempt_check CHECK ((attempt >= 1))
);

--
-- Name: webhook_endpoints; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webhook_endpoints (
    id uuid NOT NULL,
    agent_id uuid NOT NULL,
    url text NOT NULL,
    events text[] NOT NULL,
    secret_sealed text NOT NULL,
    status text DEFAULT 'active'::text NOT NULL,
    failing_since timestamp with time zone,
    last_success_at timestamp with time zone,
    disabled_at timestamp with time zone,
    disabled_reason text,
    deleted_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT webhook_endpoints_deleted CHECK (((status = 'deleted'::text) = (deleted_at IS NOT NULL))),
    CONSTRAINT webhook_endpoints_disabled CHECK ((((status = 'disabled'::text) = (disabled_at IS NOT NULL)) OR (status = 'deleted'::text))),
    CONSTRAINT webhook_endpoints_events_check CHECK ((cardinality(events) >= 1)),
    CONSTRAINT webhook_endpoints_status_check CHECK ((status = ANY (ARRAY['active'::text, 'disabled'::text, 'deleted'::text]))),
    CONSTRAINT webhook_endpoints_url_check CHECK (((char_length(url) >= 1) AND (char_length(url) <= 2048)))
);

--
-- Name: withdrawal_identity_holds; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.withdrawal_identity_holds (
    withdrawal_id text NOT NULL,
    payee_account text NOT NULL,
    payee_name text,
    held_until timestamp with time zone NOT NULL,
    created_at timestamp with time zone NOT NULL
);

--
-- Name: withdrawals; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.withdrawals (
    id text NOT NULL,
    worker_id uuid NOT NULL,
    amount_cents bigint NOT NULL,
    provider text NOT NULL,
    payee_account text NOT NULL,
    payee_name text,
    status text NOT NULL,
    review_reason text,
    reviewed_by uuid,
    reviewed_at timestamp with time zone,
    rejection_reason text,
    provider_transfer_id text,
    failure_reason text,
    completed_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT withdrawals_amount_cents_check CHECK ((amount_cents >= 1000)),
    CONSTRAINT withdrawals_completed CHECK (((status = 'completed'::text) = (completed_at IS NOT NULL))),
    CONSTRAINT withdrawals_id_check CHECK ((id ~ '^[0-9A-Za-z]{6,32}$'::text)),
    CONSTRAINT withdrawals_payee_account_check CHECK (((char_length(payee_account) >= 1) AND (char_length(payee_account) <= 100))),
    CONSTRAINT withdrawals_payee_name_check CHECK (((char_length(payee_name) >= 1) AND (char_length(payee_name) <= 50))),
    CONSTRAINT withdrawals_provider_check CHECK ((provider = 'alipay'::text)),
    CONSTRAINT withdrawals_rejected CHECK (((status = 'rejected'::text) = (rejection_reason IS NOT NULL))),
    CONSTRAINT withdrawals_rejection_reason_check CHECK (((char_length(rejection_reason) >= 1) AND (char_length(rejection_reason) <= 500))),
    CONSTRAINT withdrawals_review CHECK (((status <> 'pending_review'::text) OR (review_reason IS NOT NULL))),
    CONSTRAINT withdrawals_review_reason_check CHECK ((review_reason = ANY (ARRAY['large_amount'::text, 'first_withdrawal'::text]))),
    CONSTRAINT withdrawals_status_check CHECK ((status = ANY (ARRAY['pending_review'::text, 'processing'::text, 'completed'::text, 'failed'::text, 'rejected'::text])))
);

--
-- Name: worker_availability; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.worker_availability (
    worker_id uuid NOT NULL,
    online boolean NOT NULL,
    latitude double precision,
    longitude double precision,
    position_at timestamp with time zone,
    last_seen_at timestamp with time zone NOT NULL,
    on_call_until timestamp with time zone,
    CONSTRAINT worker_availability_latitude_check CHECK (((latitude >= ('-90'::integer)::double precision) AND (latitude <= (90)::double precision))),
    CONSTRAINT worker_availability_longitude_check CHECK (((longitude >= ('-180'::integer)::double precision) AND (longitude <= (180)::double precision))),
    CONSTRAINT worker_availability_on_call CHECK ((online = (on_call_until IS NOT NULL))),
    CONSTRAINT worker_availability_online_position CHECK (((NOT online) OR (latitude IS NOT NULL))),
    CONSTRAINT worker_availability_position CHECK ((((latitude IS NULL) = (longitude IS NULL)) AND ((latitude IS NULL) = (position_at IS NULL))))
);

--
-- Name: worker_consents; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.worker_consents (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    worker_id uuid NOT NULL,
    kind text NOT NULL,
    version integer NOT NULL,
    given_at timestamp with time zone NOT NULL,
    withdrawn_at timestamp with time zone,
    CONSTRAINT worker_consents_check CHECK (((withdrawn_at IS NULL) OR (withdrawn_at >= given_at)))
);

--
-- Name: worker_notification_deliveries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.worker_notification_deliveries (
    notification_id uuid NOT NULL,
    channel text NOT NULL,
    status text NOT NULL,
    sent_at timestamp with time zone NOT NULL,
    detail text,
    attempts integer DEFAULT 1 NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    CONSTRAINT worker_notification_deliveries_attempts_check CHECK ((attempts >= 1)),
    CONSTRAINT worker_notification_deliveries_channel_check CHECK ((channel = ANY (ARRAY['socket'::text, 'push'::text, 'sms'::text]))),
    CONSTRAINT worker_notification_deliveries_check CHECK (((status <> 'waiting'::text) OR (channel = 'sms'::text))),
    CONSTRAINT worker_notification_deliveries_detail_check CHECK ((char_length(detail) <= 200)),
    CONSTRAINT worker_notification_deliveries_status_check CHECK ((status = ANY (ARRAY['sent'::text, 'no_connection'::text, 'failed'::text, 'skipped'::text, 'waiting'::text])))
);

--
-- Name: worker_notifications; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.worker_notifications (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    event_id uuid NOT NULL,
    worker_id uuid NOT NULL,
    kind text NOT NULL,
    assignment_id uuid NOT NULL,
    task_id uuid NOT NULL,
    amount_cents bigint NOT NULL,
    reason_code text,
    reason_text text,
    dispute_outcome text,
    created_at timestamp with time zone NOT NULL,
    read_at timestamp with time zone,
    CONSTRAINT worker_notifications_amount_cents_check CHECK ((amount_cents >= 0)),
    CONSTRAINT worker_notifications_check CHECK (((kind = 'dispute_decided'::text) = (dispute_outcome IS NOT NULL))),
    CONSTRAINT worker_notifications_dispute_outcome_check CHECK ((dispute_outcome = ANY (ARRAY['upheld'::text, 'overturned'::text, 'split'::text]))),
    CONSTRAINT worker_notifications_kind_check CHECK ((kind = ANY (ARRAY['paid'::text, 'unable_paid'::text, 'rejected'::text, 'dispute_decided'::text, 'compensated'::text]))),
    CONSTRAINT worker_notifications_reason_code_check CHECK ((char_length(reason_code) <= 64)),
    CONSTRAINT worker_notifications_reason_text_check CHECK ((char_length(reason_text) <= 2000))
);

--
-- Name: worker_review_requests; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.worker_review_requests (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    worker_id uuid NOT NULL,
    subject text NOT NULL,
    subject_id uuid NOT NULL,
    statement text NOT NULL,
    status text DEFAULT 'open'::text NOT NULL,
    outcome text,
    admin_id uuid,
    note text,
    created_at timestamp with time zone NOT NULL,
    decided_at timestamp with time zone,
    CONSTRAINT worker_review_requests_check CHECK (((status = 'open'::text) = (outcome IS NULL))),
    CONSTRAINT worker_review_requests_outcome_check CHECK ((outcome = ANY (ARRAY['upheld'::text, 'reversed'::text]))),
    CONSTRAINT worker_review_requests_status_check CHECK ((status = ANY (ARRAY['open'::text, 'decided'::text]))),
    CONSTRAINT worker_review_requests_subject_check CHECK ((subject = ANY (ARRAY['fraud_hold'::text, 'suspension'::text])))
);

--
-- Name: worker_suspensions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.worker_suspensions (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    worker_id uuid NOT NULL,
    suspended boolean NOT NULL,
    withdrawals_paused boolean NOT NULL,
    reason text NOT NULL,
    created_by_admin_id uuid,
    created_at timestamp with time zone NOT NULL,
    lifted_at timestamp with time zone,
    lift_note text,
    CONSTRAINT worker_suspensions_check CHECK ((suspended OR withdrawals_paused))
);

--
-- Name: workers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.workers (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    phone_number text NOT NULL,
    password_hash text NOT NULL,
    display_name text,
    skills text[] DEFAULT '{}'::text[] NOT NULL,
    account_status text DEFAULT 'active'::text NOT NULL,
    failed_login_count integer DEFAULT 0 NOT NULL,
    failed_login_window_start timestamp with time zone,
    locked_until timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    reputation numeric(3,2) DEFAULT 4.00 NOT NULL,
    finished_tasks integer DEFAULT 0 NOT NULL,
    approved_tasks integer DEFAULT 0 NOT NULL,
    rating_count integer DEFAULT 0 NOT NULL,
    rating_average numeric(3,2),
    median_response_seconds integer,
    reputation_updated_at timestamp with time zone,
    simulated_by_agent_id uuid,
    offer_sms_enabled boolean DEFAULT true NOT NULL,
    deleted_at timestamp with time zone,
    money_sms_enabled boolean DEFAULT false NOT NULL,
    CONSTRAINT workers_account_status_check CHECK ((account_status = ANY (ARRAY['active'::text, 'suspended'::text, 'closed'::text]))),
    CONSTRAINT workers_check CHECK (((approved_tasks >= 0) AND (approved_tasks <= finished_tasks))),
    CONSTRAINT workers_deleted_closed CHECK (((deleted_at IS NULL) OR (account_status = 'closed'::text))),
    CONSTRAINT workers_display_name_check CHECK (((display_name IS NULL) OR ((char_length(display_name) >= 1) AND (char_length(display_name) <= 50)))),
    CONSTRAINT workers_finished_tasks_check CHECK ((finished_tasks >= 0)),
    CONSTRAINT workers_median_response_seconds_check CHECK ((median_response_seconds >= 0)),
    CONSTRAINT workers_phone_number_check CHECK (((phone_number ~ '^1[3-9][0-9]{9}$'::text) OR ((simulated_by_agent_id IS NOT NULL) AND (phone_number ~ '^sandbox:[0-9a-f-]{36}$'::text)) OR ((deleted_at IS NOT NULL) AND (phone_number ~ '^deleted:[0-9a-f-]{36}$'::text)))),
    CONSTRAINT workers_rating_average_check CHECK (((rating_average >= (0)::numeric) AND (rating_average <= (5)::numeric))),
    CONSTRAINT workers_rating_count_check CHECK ((rating_count >= 0)),
    CONSTRAINT workers_reputation_check CHECK (((reputation >= (0)::numeric) AND (reputation <= (5)::numeric))),
    CONSTRAINT workers_skills_check CHECK ((cardinality(skills) <= 20))
);

--
-- Name: assignment_messages seq; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.assignment_messages ALTER COLUMN seq SET DEFAULT nextval('public.assignment_messages_seq_seq'::regclass);

--
-- Name: ledger_accounts id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ledger_accounts ALTER COLUMN id SET DEFAULT nextval('public.ledger_accounts_id_seq'::regclass);

--
-- Name: ledger_journals id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ledger_journals ALTER COLUMN id SET DEFAULT nextval('public.ledger_journals_id_seq'::regclass);

--
-- Name: ledger_postings id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ledger_postings ALTER COLUMN id SET DEFAULT nextval('public.ledger_postings_id_seq'::regclass);

--
-- Name: photo_hashes id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.photo_hashes ALTER COLUMN id SET DEFAULT nextval('public.photo_hashes_id_seq'::regclass);

--
-- Name: schema_migrations id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_migrations ALTER COLUMN id SET DEFAULT nextval('public.schema_migrations_id_seq'::regclass);

--
-- Name: schema_migrations PK_62441bec32630ced9e4cccae336; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_migrations
    ADD CONSTRAINT "PK_62441bec32630ced9e4cccae336" PRIMARY KEY (id);

--
-- Name: admin_credits admin_credits_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.admin_credits
    ADD CONSTRAINT admin_credits_pkey PRIMARY KEY (journal_id);

--
-- Name: admin_recovery_codes admin_recovery_codes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.admin_recovery_codes
    ADD CONSTRAINT admin_recovery_codes_pkey PRIMARY KEY (admin_id, code_hash);

--
-- Name: admins admins_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.admins
    ADD CONSTRAINT admins_pkey PRIMARY KEY (id);

--
-- Name: agent_callback_secrets agent_callback_secrets_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.agent_callback_secrets
    ADD CONSTRAINT agent_callback_secrets_pkey PRIMARY KEY (agent_id);

--
-- Name: agent_rating_stats agent_rating_stats_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.agent_rating_stats
    ADD CONSTRAINT agent_rating_stats_pkey PRIMARY KEY (agent_id);

--
-- Name: agent_ratings agent_ratings_once; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.agent_ratings
    ADD CONSTRAINT agent_ratings_once UNIQUE (task_id, worker_id);

--
-- Name: agent_ratings agent_ratings_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.agent_ratings
    ADD CONSTRAINT agent_ratings_pkey PRIMARY KEY (id);

--
-- Name: agents agents_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.agents
    ADD CONSTRAINT agents_pkey PRIMARY KEY (id);

--
-- Name: api_keys api_keys_agent_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_agent_id_key UNIQUE (agent_id);

--
-- Name: api_keys api_keys_key_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_key_hash_key UNIQUE (key_hash);

--
-- Name: api_keys api_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_pkey PRIMARY KEY (id);

--
-- Name: api_usage_daily api_usage_daily_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_usage_daily
    ADD CONSTRAINT api_usage_daily_pkey PRIMARY KEY (agent_id, day);

--
-- Name: assignment_messages assignment_messages_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.assignment_messages
    ADD CONSTRAINT assignment_messages_pkey PRIMARY KEY (id);

--
-- Name: assignment_messages assignment_messages_seq_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.assignment_messages
    ADD CONSTRAINT assignment_messages_seq_key UNIQUE (seq);

--
-- Name: assignments assignments_one_per_worker; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.assignments
    ADD CONSTRAINT assignments_one_per_worker UNIQUE (task_id, worker_id);

--
-- Name: assignments assignments_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.assignments
    ADD CONSTRAINT assignments_pkey PRIMARY KEY (id);

--
-- Name: consent_versions consent_versions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.consent_versions
    ADD CONSTRAINT consent_versions_pkey PRIMARY KEY (kind, version);

--
-- Name: disputes disputes_assignment_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.disputes
    ADD CONSTRAINT disputes_assignment_id_key UNIQUE (assignment_id);

--
-- Name: disputes disputes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.disputes
    ADD CONSTRAINT disputes_pkey PRIMARY KEY (id);

--
-- Name: events events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_pkey PRIMARY KEY (id);

--
-- Name: idempotency_keys idempotency_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.idempotency_keys
    ADD CONSTRAINT idempotency_keys_pkey PRIMARY KEY (agent_id, scope, key);

--
-- Name: ledger_accounts ledger_accounts_code_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ledger_accounts
    ADD CONSTRAINT ledger_accounts_code_key UNIQUE (code);

--
-- Name: ledger_accounts ledger_accounts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ledger_accounts
    ADD CONSTRAINT ledger_accounts_pkey PRIMARY KEY (id);

--
-- Name: ledger_journals ledger_journals_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ledger_journals
    ADD CONSTRAINT ledger_journals_pkey PRIMARY KEY (id);

--
-- Name: ledger_journals ledger_journals_reference_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ledger_journals
    ADD CONSTRAINT ledger_journals_reference_key UNIQUE (reference);

--
-- Name: ledger_postings ledger_postings_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ledger_postings
    ADD CONSTRAINT ledger_postings_pkey PRIMARY KEY (id);

--
-- Name: message_read_markers message_read_markers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.message_read_markers
    ADD CONSTRAINT message_read_markers_pkey PRIMARY KEY (assignment_id, reader);

--
-- Name: oauth_clients oauth_clients_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.oauth_clients
    ADD CONSTRAINT oauth_clients_pkey PRIMARY KEY (client_id);

--
-- Name: oauth_codes oauth_codes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.oauth_codes
    ADD CONSTRAINT oauth_codes_pkey PRIMARY KEY (code_hash);

--
-- Name: oauth_grants oauth_grants_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.oauth_grants
    ADD CONSTRAINT oauth_grants_pkey PRIMARY KEY (id);

--
-- Name: oauth_refresh_tokens oauth_refresh_tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.oauth_refresh_tokens
    ADD CONSTRAINT oauth_refresh_tokens_pkey PRIMARY KEY (id);

--
-- Name: oauth_refresh_tokens oauth_refresh_tokens_token_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.oauth_refresh_tokens
    ADD CONSTRAINT oauth_refresh_tokens_token_hash_key UNIQUE (token_hash);

--
-- Name: oauth_requests oauth_requests_handle_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.oauth_requests
    ADD CONSTRAINT oauth_requests_handle_hash_key UNIQUE (handle_hash);

--
-- Name: oauth_requests oauth_requests_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.oauth_requests
    ADD CONSTRAINT oauth_requests_pkey PRIMARY KEY (id);

--
-- Name: offer_deliveries offer_deliveries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.offer_deliveries
    ADD CONSTRAINT offer_deliveries_pkey PRIMARY KEY (assignment_id, channel);

--
-- Name: operator_audit_log operator_audit_log_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.operator_audit_log
    ADD CONSTRAINT operator_audit_log_pkey PRIMARY KEY (id);

--
-- Name: payment_orders payment_orders_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.payment_orders
    ADD CONSTRAINT payment_orders_pkey PRIMARY KEY (id);

--
-- Name: payment_refunds payment_refunds_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.payment_refunds
    ADD CONSTRAINT payment_refunds_pkey PRIMARY KEY (id);

--
-- Name: photo_hashes photo_hashes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.photo_hashes
    ADD CONSTRAINT photo_hashes_pkey PRIMARY KEY (id);

--
-- Name: position_reports position_reports_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.position_reports
    ADD CONSTRAINT position_reports_pkey PRIMARY KEY (id);

--
-- Name: proof_reviews proof_reviews_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.proof_reviews
    ADD CONSTRAINT proof_reviews_pkey PRIMARY KEY (assignment_id);

--
-- Name: push_subscriptions push_subscriptions_endpoint_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.push_subscriptions
    ADD CONSTRAINT push_subscriptions_endpoint_key UNIQUE (endpoint);

--
-- Name: push_subscriptions push_subscriptions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.push_subscriptions
    ADD CONSTRAINT push_subscriptions_pkey PRIMARY KEY (id);

--
-- Name: refresh_tokens refresh_tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.refresh_tokens
    ADD CONSTRAINT refresh_tokens_pkey PRIMARY KEY (id);

--
-- Name: refresh_tokens refresh_tokens_token_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.refresh_tokens
    ADD CONSTRAINT refresh_tokens_token_hash_key UNIQUE (token_hash);

--
-- Name: sandbox_actions sandbox_actions_assignment_id_step_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sandbox_actions
    ADD CONSTRAINT sandbox_actions_assignment_id_step_key UNIQUE (assignment_id, step);

--
-- Name: sandbox_actions sandbox_actions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sandbox_actions
    ADD CONSTRAINT sandbox_actions_pkey PRIMARY KEY (id);

--
-- Name: sandbox_sms sandbox_sms_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sandbox_sms
    ADD CONSTRAINT sandbox_sms_pkey PRIMARY KEY (id);

--
-- Name: sandbox_workers sandbox_workers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sandbox_workers
    ADD CONSTRAINT sandbox_workers_pkey PRIMARY KEY (worker_id);

--
-- Name: sms_codes sms_codes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sms_codes
    ADD CONSTRAINT sms_codes_pkey PRIMARY KEY (id);

--
-- Name: spend_approvals spend_approvals_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.spend_approvals
    ADD CONSTRAINT spend_approvals_pkey PRIMARY KEY (id);

--
-- Name: task_feedback task_feedback_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.task_feedback
    ADD CONSTRAINT task_feedback_pkey PRIMARY KEY (id);

--
-- Name: task_feedback task_feedback_reason_on_rejection; Type: CHECK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE public.task_feedback
    ADD CONSTRAINT task_feedback_reason_on_rejection CHECK ((accept_result = (reason_code IS NULL))) NOT VALID;

--
-- Name: task_reports task_reports_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.task_reports
    ADD CONSTRAINT task_reports_pkey PRIMARY KEY (id);

--
-- Name: tasks tasks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tasks
    ADD CONSTRAINT tasks_pkey PRIMARY KEY (id);

--
-- Name: test_clocks test_clocks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.test_clocks
    ADD CONSTRAINT test_clocks_pkey PRIMARY KEY (id);

--
-- Name: uploads uploads_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.uploads
    ADD CONSTRAINT uploads_pkey PRIMARY KEY (id);

--
-- Name: uploads uploads_storage_key_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.uploads
    ADD CONSTRAINT uploads_storage_key_key UNIQUE (storage_key);

--
-- Name: webhook_deliveries webhook_deliveries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (id);

--
-- Name: webhook_delivery_attempts webhook_delivery_attempts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_delivery_attempts
    ADD CONSTRAINT webhook_delivery_attempts_pkey PRIMARY KEY (delivery_id, attempt);

--
-- Name: webhook_endpoints webhook_endpoints_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_endpoints
    ADD CONSTRAINT webhook_endpoints_pkey PRIMARY KEY (id);

--
-- Name: withdrawal_identity_holds withdrawal_identity_holds_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.withdrawal_identity_holds
    ADD CONSTRAINT withdrawal_identity_holds_pkey PRIMARY KEY (withdrawal_id);

--
-- Name: withdrawals withdrawals_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.withdrawals
    ADD CONSTRAINT withdrawals_pkey PRIMARY KEY (id);

--
-- Name: worker_availability worker_availability_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.worker_availability
    ADD CONSTRAINT worker_availability_pkey PRIMARY KEY (worker_id);

--
-- Name: worker_consents worker_consents_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.worker_consents
    ADD CONSTRAINT worker_consents_pkey PRIMARY KEY (id);

--
-- Name: worker_notification_deliveries worker_notification_deliveries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.worker_notification_deliveries
    ADD CONSTRAINT worker_notification_deliveries_pkey PRIMARY KEY (notification_id, channel);

--
-- Name: worker_notifications worker_notifications_event_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.worker_notifications
    ADD CONSTRAINT worker_notifications_event_id_key UNIQUE (event_id);

--
-- Name: worker_notifications worker_notifications_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.worker_notifications
    ADD CONSTRAINT worker_notifications_pkey PRIMARY KEY (id);

--
-- Name: worker_review_requests worker_review_requests_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.worker_review_requests
    ADD CONSTRAINT worker_review_requests_pkey PRIMARY KEY (id);

--
-- Name: worker_suspensions worker_suspensions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.worker_suspensions
    ADD CONSTRAINT worker_suspensions_pkey PRIMARY KEY (id);

--
-- Name: workers workers_phone_number_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.workers
    ADD CONSTRAINT workers_phone_number_key UNIQUE (phone_number);

--
-- Name: workers workers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.workers
    ADD CONSTRAINT workers_pkey PRIMARY KEY (id);

--
-- Name: admin_credits_agent_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX admin_credits_agent_idx ON public.admin_credits USING btree (agent_id, created_at DESC);

--
-- Name: admins_email_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX admins_email_key ON public.admins USING btree (lower(email));

--
-- Name: agent_ratings_agent_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX agent_ratings_agent_idx ON public.agent_ratings USING btree (agent_id, created_at DESC);

--
-- Name: agents_email_key; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX agents_email_key ON public.agents USING btree (lower(email));

--
-- Name: assignment_messages_flagged_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX assignment_messages_flagged_idx ON public.assignment_messages USING btree (seq) WHERE ((cardinality(flags) > 0) AND (flag_reviewed_at IS NULL));

--
-- Name: assignment_messages_task_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX assignment_messages_task_idx ON public.assignment_messages USING btree (task_id, seq);

--
-- Name: assignment_messages_thread_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX assignment_messages_thread_idx ON public.assignment_messages USING btree (assignment_id, seq);

--
-- Name: assignments_disputable_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX assignments_disputable_idx ON public.assignments USING btree (dispute_window_ends_at) WHERE (status = 'rejected'::text);

--
-- Name: assignments_live_offer_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX assignments_live_offer_idx ON public.assignments USING btree (offer_expires_at) WHERE (status = 'pending'::text);

--
-- Name: assignments_photos_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX assignments_photos_idx ON public.assignments USING gin (photos jsonb_path_ops);

--
-- Name: assignments_review_required; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX assignments_review_required ON public.assignments USING btree (submitted_at) WHERE review_required;

--
-- Name: assignments_submitted_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX assignments_submitted_idx ON public.assignments USING btree (submitted_at) WHERE (status = 'submitted'::text);

--
-- Name: assignments_task_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX assignments_task_idx ON public.assignments USING btree (task_id);

--
-- Name: assignments_worker_deadline_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX assignments_worker_deadline_idx ON public.assignments USING btree (worker_id, task_deadline_at) INCLUDE (task_id, status);

--
-- Name: assignments_worker_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX assignments_worker_idx ON public.assignments USING btree (worker_id, status, created_at DESC);

--
-- Name: assignments_worker_offers_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX assignments_worker_offers_idx ON public.assignments USING btree (worker_id, offered_at DESC) WHERE (offered_at IS NOT NULL);

--
-- Name: disputes_agent_lost_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX disputes_agent_lost_idx ON public.disputes USING btree (agent_id, decided_at) WHERE (outcome = ANY (ARRAY['overturned'::text, 'split'::text]));

--
-- Name: disputes_open_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX disputes_open_idx ON public.disputes USING btree (agent_id) WHERE (decided_at IS NULL);

--
-- Name: disputes_queue_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX disputes_queue_idx ON public.disputes USING btree (opened_at, id);

--
-- Name: disputes_task_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX disputes_task_idx ON public.disputes USING btree (task_id, opened_at);

--
-- Name: events_agent_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX events_agent_idx ON public.events USING btree (agent_id, created_at DESC, id DESC);

--
-- Name: events_agent_seq_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX events_agent_seq_idx ON public.events USING btree (agent_id, seq) WHERE (agent_id IS NOT NULL);

--
-- Name: events_seq_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX events_seq_idx ON public.events USING btree (seq);

--
-- Name: events_task_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX events_task_idx ON public.events USING btree (task_id, seq) WHERE (task_id IS NOT NULL);

--
-- Name: events_unpublished_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX events_unpublished_idx ON public.events USING btree (seq) WHERE (published_at IS NULL);

--
-- Name: events_worker_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX events_worker_idx ON public.events USING btree (worker_id, created_at DESC);

--
-- Name: events_worker_seq_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX events_worker_seq_idx ON public.events USING btree (worker_id, seq) WHERE (worker_id IS NOT NULL);

--
-- Name: idempotency_keys_expiry_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX idempotency_keys_expiry_idx ON public.idempotency_keys USING btree (expires_at);

--
-- Name: ledger_accounts_agent_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ledger_accounts_agent_idx ON public.ledger_accounts USING btree (agent_id, kind) WHERE (agent_id IS NOT NULL);

--
-- Name: ledger_accounts_owner_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ledger_accounts_owner_idx ON public.ledger_accounts USING btree (owner_id) WHERE (owner_id IS NOT NULL);

--
-- Name: ledger_journals_agent_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ledger_journals_agent_idx ON public.ledger_journals USING btree (agent_id, created_at DESC, id DESC);

--
-- Name: ledger_journals_task_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ledger_journals_task_idx ON public.ledger_journals USING btree (task_id);

--
-- Name: ledger_journals_worker_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ledger_journals_worker_idx ON public.ledger_journals USING btree (worker_id, created_at DESC, id DESC);

--
-- Name: ledger_postings_account_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ledger_postings_account_idx ON public.ledger_postings USING btree (account_id);

--
-- Name: ledger_postings_journal_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ledger_postings_journal_idx ON public.ledger_postings USING btree (journal_id);

--
-- Name: oauth_clients_expiry_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX oauth_clients_expiry_idx ON public.oauth_clients USING btree (expires_at) WHERE (expires_at IS NOT NULL);

--
-- Name: oauth_codes_grant_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX oauth_codes_grant_idx ON public.oauth_codes USING btree (grant_id);

--
-- Name: oauth_grants_agent_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX oauth_grants_agent_idx ON public.oauth_grants USING btree (agent_id, created_at DESC);

--
-- Name: oauth_refresh_family_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX oauth_refresh_family_idx ON public.oauth_refresh_tokens USING btree (family_id);

--
-- Name: oauth_refresh_grant_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX oauth_refresh_grant_idx ON public.oauth_refresh_tokens USING btree (grant_id);

--
-- Name: operator_audit_log_action_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX operator_audit_log_action_idx ON public.operator_audit_log USING btree (action, id DESC);

--
-- Name: operator_audit_log_admin_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX operator_audit_log_admin_idx ON public.operator_audit_log USING btree (admin_id, id DESC);

--
-- Name: operator_audit_log_target_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX operator_audit_log_target_idx ON public.operator_audit_log USING btree (target_type, target_id, id DESC);

--
-- Name: payment_orders_agent_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX payment_orders_agent_idx ON public.payment_orders USING btree (agent_id, created_at DESC, id DESC);

--
-- Name: payment_orders_one_live_per_task; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX payment_orders_one_live_per_task ON public.payment_orders USING btree (task_id) WHERE ((task_id IS NOT NULL) AND (status = ANY (ARRAY['pending'::text, 'processing'::text, 'completed'::text])));

--
-- Name: payment_orders_open_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX payment_orders_open_idx ON public.payment_orders USING btree (expires_at) WHERE (status = ANY (ARRAY['pending'::text, 'processing'::text]));

--
-- Name: payment_orders_provider_txn; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX payment_orders_provider_txn ON public.payment_orders USING btree (provider, provider_txn_id) WHERE (provider_txn_id IS NOT NULL);

--
-- Name: payment_refunds_order_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX payment_refunds_order_idx ON public.payment_refunds USING btree (order_id, created_at);

--
-- Name: payment_refunds_processing_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX payment_refunds_processing_idx ON public.payment_refunds USING btree (created_at) WHERE (status = 'processing'::text);

--
-- Name: photo_hashes_assignment_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX photo_hashes_assignment_idx ON public.photo_hashes USING btree (assignment_id);

--
-- Name: photo_hashes_band0_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX photo_hashes_band0_idx ON public.photo_hashes USING btree (band0);

--
-- Name: photo_hashes_band1_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX photo_hashes_band1_idx ON public.photo_hashes USING btree (band1);

--
-- Name: photo_hashes_band2_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX photo_hashes_band2_idx ON public.photo_hashes USING btree (band2);

--
-- Name: photo_hashes_band3_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX photo_hashes_band3_idx ON public.photo_hashes USING btree (band3);

--
-- Name: position_reports_time; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX position_reports_time ON public.position_reports USING btree (reported_at);

--
-- Name: position_reports_worker_time; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX position_reports_worker_time ON public.position_reports USING btree (worker_id, reported_at DESC);

--
-- Name: proof_reviews_decided; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX proof_reviews_decided ON public.proof_reviews USING btree (decided_at DESC);

--
-- Name: proof_reviews_fraud; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX proof_reviews_fraud ON public.proof_reviews USING btree (worker_id) WHERE (outcome = 'confirmed_fraud'::text);

--
-- Name: push_subscriptions_worker; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX push_subscriptions_worker ON public.push_subscriptions USING btree (worker_id, updated_at);

--
-- Name: refresh_tokens_expiry_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX refresh_tokens_expiry_idx ON public.refresh_tokens USING btree (expires_at);

--
-- Name: refresh_tokens_family_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX refresh_tokens_family_idx ON public.refresh_tokens USING btree (family_id);

--
-- Name: sandbox_actions_open; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sandbox_actions_open ON public.sandbox_actions USING btree (due_at) WHERE (done_at IS NULL);

--
-- Name: sandbox_actions_worker; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sandbox_actions_worker ON public.sandbox_actions USING btree (worker_id, created_at);

--
-- Name: sandbox_sms_created; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sandbox_sms_created ON public.sandbox_sms USING btree (created_at);

--
-- Name: sandbox_sms_phone; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sandbox_sms_phone ON public.sandbox_sms USING btree (phone_number, created_at DESC);

--
-- Name: sandbox_workers_agent; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sandbox_workers_agent ON public.sandbox_workers USING btree (agent_id, created_at);

--
-- Name: sms_codes_lookup_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sms_codes_lookup_idx ON public.sms_codes USING btree (phone_number, purpose, created_at DESC);

--
-- Name: sms_codes_one_open_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX sms_codes_one_open_idx ON public.sms_codes USING btree (phone_number, purpose) WHERE ((consumed_at IS NULL) AND (superseded_at IS NULL));

--
-- Name: spend_approvals_agent_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX spend_approvals_agent_idx ON public.spend_approvals USING btree (agent_id, created_at DESC);

--
-- Name: task_feedback_task_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX task_feedback_task_idx ON public.task_feedback USING btree (task_id, created_at);

--
-- Name: task_reports_open_once; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX task_reports_open_once ON public.task_reports USING btree (task_id, worker_id) WHERE (decided_at IS NULL);

--
-- Name: task_reports_queue_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX task_reports_queue_idx ON public.task_reports USING btree (created_at, id) WHERE (decided_at IS NULL);

--
-- Name: task_reports_task_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX task_reports_task_idx ON public.task_reports USING btree (task_id);

--
-- Name: tasks_agent_list_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tasks_agent_list_idx ON public.tasks USING btree (agent_id, created_at DESC, id DESC);

--
-- Name: tasks_agent_status_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tasks_agent_status_idx ON public.tasks USING btree (agent_id, status, created_at DESC, id DESC);

--
-- Name: tasks_created_by_api_key_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tasks_created_by_api_key_idx ON public.tasks USING btree (created_by_api_key_id, created_at) WHERE (created_by_api_key_id IS NOT NULL);

--
-- Name: tasks_created_by_grant_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tasks_created_by_grant_idx ON public.tasks USING btree (created_by_grant_id, created_at) WHERE (created_by_grant_id IS NOT NULL);

--
-- Name: tasks_deadline_due_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tasks_deadline_due_idx ON public.tasks USING btree (deadline_at) WHERE ((deadline_processed_at IS NULL) AND (status = ANY (ARRAY['pending'::text, 'assigned'::text, 'in_progress'::text, 'submitted'::text])));

--
-- Name: tasks_live_deadline_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tasks_live_deadline_idx ON public.tasks USING btree (deadline_at) WHERE (status = ANY (ARRAY['pending'::text, 'assigned'::text, 'in_progress'::text, 'submitted'::text]));

--
-- Name: tasks_open_cell_deadline_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tasks_open_cell_deadline_idx ON public.tasks USING btree (public.nearby_cell(latitude, longitude), deadline_at, payout_cents DESC, id) INCLUDE (latitude, longitude, required_skills, min_reputation) WHERE ((intake_closed_at IS NULL) AND (open_slots > 0) AND (status = ANY (ARRAY['pending'::text, 'assigned'::text, 'in_progress'::text, 'submitted'::text])));

--
-- Name: tasks_open_cell_id_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tasks_open_cell_id_idx ON public.tasks USING btree (public.nearby_cell(latitude, longitude), id) INCLUDE (payout_cents, deadline_at, latitude, longitude, required_skills, min_reputation) WHERE ((intake_closed_at IS NULL) AND (open_slots > 0) AND (status = ANY (ARRAY['pending'::text, 'assigned'::text, 'in_progress'::text, 'submitted'::text])));

--
-- Name: tasks_open_cell_payout_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tasks_open_cell_payout_idx ON public.tasks USING btree (public.nearby_cell(latitude, longitude), payout_cents DESC, deadline_at, id) INCLUDE (latitude, longitude, required_skills, min_reputation) WHERE ((intake_closed_at IS NULL) AND (open_slots > 0) AND (status = ANY (ARRAY['pending'::text, 'assigned'::text, 'in_progress'::text, 'submitted'::text])));

--
-- Name: tasks_open_intake_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tasks_open_intake_idx ON public.tasks USING btree (deadline_at) WHERE ((intake_closed_at IS NULL) AND (status = ANY (ARRAY['pending'::text, 'assigned'::text, 'in_progress'::text, 'submitted'::text])));

--
-- Name: tasks_open_nearby_gist; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tasks_open_nearby_gist ON public.tasks USING gist (public.ll_to_earth(latitude, longitude)) WHERE ((intake_closed_at IS NULL) AND (open_slots > 0) AND (status = ANY (ARRAY['pending'::text, 'assigned'::text, 'in_progress'::text, 'submitted'::text])));

--
-- Name: tasks_test_clock; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tasks_test_clock ON public.tasks USING btree (test_clock_id) WHERE (test_clock_id IS NOT NULL);

--
-- Name: test_clocks_agent; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX test_clocks_agent ON public.test_clocks USING btree (agent_id, created_at);

--
-- Name: uploads_worker_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX uploads_worker_idx ON public.uploads USING btree (worker_id, created_at DESC);

--
-- Name: webhook_deliveries_claim_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX webhook_deliveries_claim_idx ON public.webhook_deliveries USING btree (next_attempt_at, event_seq) WHERE (status = 'pending'::text);

--
-- Name: webhook_deliveries_endpoint_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX webhook_deliveries_endpoint_idx ON public.webhook_deliveries USING btree (endpoint_id, created_at DESC, id DESC);

--
-- Name: webhook_deliveries_event_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX webhook_deliveries_event_idx ON public.webhook_deliveries USING btree (event_id);

--
-- Name: webhook_deliveries_order_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX webhook_deliveries_order_idx ON public.webhook_deliveries USING btree (ordering_key, event_seq) WHERE ((status = 'pending'::text) AND (ordering_key IS NOT NULL));

--
-- Name: webhook_endpoints_agent_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX webhook_endpoints_agent_idx ON public.webhook_endpoints USING btree (agent_id, created_at DESC) WHERE (status <> 'deleted'::text);

--
-- Name: withdrawal_identity_holds_until; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX withdrawal_identity_holds_until ON public.withdrawal_identity_holds USING btree (held_until);

--
-- Name: withdrawals_status_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX withdrawals_status_idx ON public.withdrawals USING btree (status, created_at);

--
-- Name: withdrawals_worker_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX withdrawals_worker_idx ON public.withdrawals USING btree (worker_id, created_at DESC);

--
-- Name: worker_availability_online_gist; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX worker_availability_online_gist ON public.worker_availability USING gist (public.ll_to_earth(latitude, longitude)) WHERE online;

--
-- Name: worker_consents_live; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX worker_consents_live ON public.worker_consents USING btree (worker_id, kind) WHERE (withdrawn_at IS NULL);

--
-- Name: worker_consents_worker; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX worker_consents_worker ON public.worker_consents USING btree (worker_id, given_at);

--
-- Name: worker_notifications_unread_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX worker_notifications_unread_idx ON public.worker_notifications USING btree (worker_id) WHERE (read_at IS NULL);

--
-- Name: worker_notifications_worker_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX worker_notifications_worker_idx ON public.worker_notifications USING btree (worker_id, created_at DESC, id DESC);

--
-- Name: worker_review_requests_one_open; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX worker_review_requests_one_open ON public.worker_review_requests USING btree (subject, subject_id) WHERE (status = 'open'::text);

--
-- Name: worker_review_requests_status; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX worker_review_requests_status ON public.worker_review_requests USING btree (status, created_at);

--
-- Name: worker_review_requests_worker; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX worker_review_requests_worker ON public.worker_review_requests USING btree (worker_id);

--
-- Name: worker_suspensions_live; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX worker_suspensions_live ON public.worker_suspensions USING btree (worker_id) WHERE (lifted_at IS NULL);

--
-- Name: workers_simulated_by_agent; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX workers_simulated_by_agent ON public.workers USING btree (simulated_by_agent_id) WHERE (simulated_by_agent_id IS NOT NULL);

--
-- Name: admin_credits admin_credits_append_only; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER admin_credits_append_only BEFORE DELETE OR UPDATE ON public.admin_credits FOR EACH ROW EXECUTE FUNCTION public.ledger_append_only();

--
-- Name: admins admins_delete_notify_auth; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER admins_delete_notify_auth AFTER DELETE ON public.admins FOR EACH STATEMENT EXECUTE FUNCTION public.legwork_notify_auth();

--
-- Name: agents agents_delete_notify_auth; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER agents_delete_notify_auth AFTER DELETE ON public.agents FOR EACH STATEMENT EXECUTE FUNCTION public.legwork_notify_auth();

--
-- Name: agents agents_notify_auth; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER agents_notify_auth AFTER UPDATE ON public.agents FOR EACH ROW WHEN (((old.account_status IS DISTINCT FROM new.account_status) OR (old.rate_limit_per_minute IS DISTINCT FROM new.rate_limit_per_minute) OR (old.rate_limit_per_day IS DISTINCT FROM new.rate_limit_per_day))) EXECUTE FUNCTION public.legwork_notify_auth();

--
-- Name: api_keys api_keys_delete_notify_auth; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER api_keys_delete_notify_auth AFTER DELETE ON public.api_keys FOR EACH STATEMENT EXECUTE FUNCTION public.legwork_notify_auth();

--
-- Name: api_keys api_keys_notify_auth; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER api_keys_notify_auth AFTER UPDATE ON public.api_keys FOR EACH ROW WHEN (((old.key_hash IS DISTINCT FROM new.key_hash) OR (old.is_active IS DISTINCT FROM new.is_active) OR (old.permissions IS DISTINCT FROM new.permissions) OR (old.agent_id IS DISTINCT FROM new.agent_id))) EXECUTE FUNCTION public.legwork_notify_auth();

--
-- Name: assignments assignments_task_deadline; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER assignments_task_deadline BEFORE INSERT ON public.assignments FOR EACH ROW EXECUTE FUNCTION public.assignments_take_task_deadline();

--
-- Name: events events_notify; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER events_notify AFTER INSERT ON public.events FOR EACH STATEMENT EXECUTE FUNCTION public.legwork_notify_events();

--
-- Name: ledger_journals ledger_journals_append_only; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_journals_append_only BEFORE DELETE OR UPDATE ON public.ledger_journals FOR EACH ROW EXECUTE FUNCTION public.ledger_append_only();

--
-- Name: ledger_postings ledger_postings_append_only; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER ledger_postings_append_only BEFORE DELETE OR UPDATE ON public.ledger_postings FOR EACH ROW EXECUTE FUNCTION public.ledger_append_only();

--
-- Name: ledger_postings ledger_postings_balance; Type: TRIGGER; Schema: public; Owner: -
--

CREATE CONSTRAINT TRIGGER ledger_postings_balance AFTER INSERT ON public.ledger_postings DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION public.ledger_journal_balances();

--
-- Name: operator_audit_log operator_audit_log_no_change; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER operator_audit_log_no_change BEFORE DELETE OR UPDATE ON public.operator_audit_log FOR EACH ROW EXECUTE FUNCTION public.operator_audit_log_append_only();

--
-- Name: operator_audit_log operator_audit_log_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER operator_audit_log_no_truncate BEFORE TRUNCATE ON public.operator_audit_log FOR EACH STATEMENT EXECUTE FUNCTION public.operator_audit_log_append_only();

--
-- Name: tasks tasks_deadline_to_assignments; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER tasks_deadline_to_assignments AFTER UPDATE OF deadline_at ON public.tasks FOR EACH ROW WHEN ((new.deadline_at IS DISTINCT FROM old.deadline_at)) EXECUTE FUNCTION public.tasks_deadline_to_assignments();

--
-- Name: webhook_deliveries webhook_deliveries_notify; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER webhook_deliveries_notify AFTER INSERT ON public.webhook_deliveries FOR EACH STATEMENT EXECUTE FUNCTION public.legwork_notify_deliveries();

--
-- Name: workers workers_delete_notify_auth; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER workers_delete_notify_auth AFTER DELETE ON public.workers FOR EACH STATEMENT EXECUTE FUNCTION public.legwork_notify_auth();

--
-- Name: workers workers_notify_auth; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER workers_notify_auth AFTER UPDATE ON public.workers FOR EACH ROW WHEN ((old.account_status IS DISTINCT FROM new.account_status)) EXECUTE FUNCTION public.legwork_notify_auth();

--
-- Name: admin_credits admin_credits_admin_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.admin_credits
    ADD CONSTRAINT admin_credits_admin_id_fkey FOREIGN KEY (admin_id) REFERENCES public.admins(id);

--
-- Name: admin_credits admin_credits_agent_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.admin_credits
    ADD CONSTRAINT admin_credits_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES public.agents(id);

--
-- Name: admin_credits admin_credits_journal_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.admin_credits
    ADD CONSTRAINT admin_credits_journal_id_fkey FOREIGN KEY (journal_id) REFERENCES public.ledger_journals(id);

--
-- Name: admin_recovery_codes admin_recovery_codes_admin_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.admin_recovery_codes
    ADD CONSTRAINT admin_recovery_codes_admin_id_fkey FOREIGN KEY (admin_id) REFERENCES public.admins(id) ON DELETE CASCADE;

--
-- Name: agent_callback_secrets agent_callback_secrets_agent_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.agent_callback_secrets
    ADD CONSTRAINT agent_callback_secrets_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES public.agents(id);

--
-- Name: agent_rating_stats agent_rating_stats_agent_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.agent_rating_stats
    ADD CONSTRAINT agent_rating_stats_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES public.agents(id);

--
-- Name: agent_ratings agent_ratings_agent_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.agent_ratings
    ADD CONSTRAINT agent_ratings_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES public.agents(id);

--
-- Name: agent_ratings agent_ratings_task_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.agent_ratings
    ADD CONSTRAINT agent_ratings_task_id_fkey FOREIGN KEY (task_id) REFERENCES public.tasks(id);

--
-- Name: agent_ratings agent_ratings_worker_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.agent_ratings
    ADD CONSTRAINT agent_ratings_worker_id_fkey FOREIGN KEY (worker_id) REFERENCES public.workers(id);

--
-- Name: api_keys api_keys_agent_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES public.agents(id) ON DELETE CASCADE;

--
-- Name: api_usage_daily api_usage_daily_agent_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_usage_daily
    ADD CONSTRAINT api_usage_daily_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES public.agents(id) ON DELETE CASCADE;

--
-- Name: assignment_messages assignment_messages_assignment_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.assignment_messages
    ADD CONSTRAINT assignment_messages_assignment_id_fkey FOREIGN KEY (assignment_id) REFERENCES public.assignments(id);

--
-- Name: assignment_messages assignment_messages_task_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.assignment_messages
    ADD CONSTRAINT assignment_messages_task_id_fkey FOREIGN KEY (task_id) REFERENCES public.tasks(id);

--
-- Name: assignments assignments_task_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.assignments
    ADD CONSTRAINT assignments_task_id_fkey FOREIGN KEY (task_id) REFERENCES public.tasks(id);

--
-- Name: assignments assignments_worker_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.assignments
    ADD CONSTRAINT assignments_worker_id_fkey FOREIGN KEY (worker_id) REFERENCES public.workers(id);

--
-- Name: disputes disputes_agent_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.disputes
    ADD CONSTRAINT disputes_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES public.agents(id);

--
-- Name: disputes disputes_assignment_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.disputes
    ADD CONSTRAINT disputes_assignment_id_fkey FOREIGN KEY (assignment_id) REFERENCES public.assignments(id);

--
-- Name: disputes disputes_decided_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.disputes
    ADD CONSTRAINT disputes_decided_by_fkey FOREIGN KEY (decided_by) REFERENCES public.admins(id);

--
-- Name: disputes disputes_task_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.disputes
    ADD CONSTRAINT disputes_task_id_fkey FOREIGN KEY (task_id) REFERENCES public.tasks(id);

--
-- Name: disputes disputes_worker_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.disputes
    ADD CONSTRAINT disputes_worker_id_fkey FOREIGN KEY (worker_id) REFERENCES public.workers(id);

--
-- Name: idempotency_keys idempotency_keys_agent_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.idempotency_keys
    ADD CONSTRAINT idempotency_keys_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES public.agents(id) ON DELETE CASCADE;

--
-- Name: ledger_postings ledger_postings_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ledger_postings
    ADD CONSTRAINT ledger_postings_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.ledger_accounts(id);

--
-- Name: ledger_postings ledger_postings_journal_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ledger_postings
    ADD CONSTRAINT ledger_postings_journal_id_fkey FOREIGN KEY (journal_id) REFERENCES public.ledger_journals(id);

--
-- Name: message_read_markers message_read_markers_assignment_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.message_read_markers
    ADD CONSTRAINT message_read_markers_assignment_id_fkey FOREIGN KEY (assignment_id) REFERENCES public.assignments(id);

--
-- Name: oauth_codes oauth_codes_grant_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.oauth_codes
    ADD CONSTRAINT oauth_codes_grant_id_fkey FOREIGN KEY (grant_id) REFERENCES public.oauth_grants(id);

--
-- Name: oauth_grants oauth_grants_agent_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.oauth_grants
    ADD CONSTRAINT oauth_grants_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES public.agents(id);

--
-- Name: oauth_grants oauth_grants_client_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.oauth_grants
    ADD CONSTRAINT oauth_grants_client_id_fkey FOREIGN KEY (client_id) REFERENCES public.oauth_clients(client_id);

--
-- Name: oauth_refresh_tokens oauth_refresh_tokens_grant_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.oauth_refresh_tokens
    ADD CONSTRAINT oauth_refresh_tokens_grant_id_fkey FOREIGN KEY (grant_id) REFERENCES public.oauth_grants(id);

--
-- Name: oauth_requests oauth_requests_client_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.oauth_requests
    ADD CONSTRAINT oauth_requests_client_id_fkey FOREIGN KEY (client_id) REFERENCES public.oauth_clients(client_id) ON DELETE CASCADE;

--
-- Name: offer_deliveries offer_deliveries_assignment_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.offer_deliveries
    ADD CONSTRAINT offer_deliveries_assignment_id_fkey FOREIGN KEY (assignment_id) REFERENCES public.assignments(id) ON DELETE CASCADE;

--
-- Name: operator_audit_log operator_audit_log_admin_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.operator_audit_log
    ADD CONSTRAINT operator_audit_log_admin_id_fkey FOREIGN KEY (admin_id) REFERENCES public.admins(id);

--
-- Name: payment_orders payment_orders_agent_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.payment_orders
    ADD CONSTRAINT payment_orders_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES public.agents(id);

--
-- Name: payment_orders payment_orders_task_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.payment_orders
    ADD CONSTRAINT payment_orders_task_id_fkey FOREIGN KEY (task_id) REFERENCES public.tasks(id);

--
-- Name: payment_refunds payment_refunds_agent_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.payment_refunds
    ADD CONSTRAINT payment_refunds_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES public.agents(id);

--
-- Name: payment_refunds payment_refunds_order_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.payment_refunds
    ADD CONSTRAINT payment_refunds_order_id_fkey FOREIGN KEY (order_id) REFERENCES public.payment_orders(id);

--
-- Name: photo_hashes photo_hashes_agent_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.photo_hashes
    ADD CONSTRAINT photo_hashes_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES public.agents(id);

--
-- Name: photo_hashes photo_hashes_assignment_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.photo_hashes
    ADD CONSTRAINT photo_hashes_assignment_id_fkey FOREIGN KEY (assignment_id) REFERENCES public.assignments(id);

--
-- Name: photo_hashes photo_hashes_task_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.photo_hashes
    ADD CONSTRAINT photo_hashes_task_id_fkey FOREIGN KEY (task_id) REFERENCES public.tasks(id);

--
-- Name: photo_hashes photo_hashes_worker_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.photo_hashes
    ADD CONSTRAINT photo_hashes_worker_id_fkey FOREIGN KEY (worker_id) REFERENCES public.workers(id);

--
-- Name: position_reports position_reports_worker_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.position_reports
    ADD CONSTRAINT position_reports_worker_id_fkey FOREIGN KEY (worker_id) REFERENCES public.workers(id) ON DELETE CASCADE;

--
-- Name: proof_reviews proof_reviews_admin_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.proof_reviews
    ADD CONSTRAINT proof_reviews_admin_id_fkey FOREIGN KEY (admin_id) REFERENCES public.admins(id);

--
-- Name: proof_reviews proof_reviews_assignment_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.proof_reviews
    ADD CONSTRAINT proof_reviews_assignment_id_fkey FOREIGN KEY (assignment_id) REFERENCES public.assignments(id);

--
-- Name: proof_reviews proof_reviews_suspension_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.proof_reviews
    ADD CONSTRAINT proof_reviews_suspension_id_fkey FOREIGN KEY (suspension_id) REFERENCES public.worker_suspensions(id);

--
-- Name: proof_reviews proof_reviews_task_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.proof_reviews
    ADD CONSTRAINT proof_reviews_task_id_fkey FOREIGN KEY (task_id) REFERENCES public.tasks(id);

--
-- Name: proof_reviews proof_reviews_worker_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.proof_reviews
    ADD CONSTRAINT proof_reviews_worker_id_fkey FOREIGN KEY (worker_id) REFERENCES public.workers(id);

--
-- Name: push_subscriptions push_subscriptions_worker_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.push_subscriptions
    ADD CONSTRAINT push_subscriptions_worker_id_fkey FOREIGN KEY (worker_id) REFERENCES public.workers(id) ON DELETE CASCADE;

--
-- Name: sandbox_actions sandbox_actions_assignment_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sandbox_actions
    ADD CONSTRAINT sandbox_actions_assignment_id_fkey FOREIGN KEY (assignment_id) REFERENCES public.assignments(id);

--
-- Name: sandbox_actions sandbox_actions_task_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sandbox_actions
    ADD CONSTRAINT sandbox_actions_task_id_fkey FOREIGN KEY (task_id) REFERENCES public.tasks(id);

--
-- Name: sandbox_actions sandbox_actions_worker_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sandbox_actions
    ADD CONSTRAINT sandbox_actions_worker_id_fkey FOREIGN KEY (worker_id) REFERENCES public.workers(id);

--
-- Name: sandbox_workers sandbox_workers_agent_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sandbox_workers
    ADD CONSTRAINT sandbox_workers_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES public.agents(id);

--
-- Name: sandbox_workers sandbox_workers_worker_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sandbox_workers
    ADD CONSTRAINT sandbox_workers_worker_id_fkey FOREIGN KEY (worker_id) REFERENCES public.workers(id);

--
-- Name: spend_approvals spend_approvals_agent_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.spend_approvals
    ADD CONSTRAINT spend_approvals_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES public.agents(id) ON DELETE CASCADE;

--
-- Name: spend_approvals spend_approvals_task_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.spend_approvals
    ADD CONSTRAINT spend_approvals_task_id_fkey FOREIGN KEY (task_id) REFERENCES public.tasks(id) ON DELETE SET NULL;

--
-- Name: task_feedback task_feedback_agent_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.task_feedback
    ADD CONSTRAINT task_feedback_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES public.agents(id);

--
-- Name: task_feedback task_feedback_task_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.task_feedback
    ADD CONSTRAINT task_feedback_task_id_fkey FOREIGN KEY (task_id) REFERENCES public.tasks(id);

--
-- Name: task_reports task_reports_agent_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.task_reports
    ADD CONSTRAINT task_reports_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES public.agents(id);

--
-- Name: task_reports task_reports_decided_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.task_reports
    ADD CONSTRAINT task_reports_decided_by_fkey FOREIGN KEY (decided_by) REFERENCES public.admins(id);

--
-- Name: task_reports task_reports_task_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.task_reports
    ADD CONSTRAINT task_reports_task_id_fkey FOREIGN KEY (task_id) REFERENCES public.tasks(id);

--
-- Name: task_reports task_reports_worker_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.task_reports
    ADD CONSTRAINT task_reports_worker_id_fkey FOREIGN KEY (worker_id) REFERENCES public.workers(id);

--
-- Name: tasks tasks_agent_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tasks
    ADD CONSTRAINT tasks_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES public.agents(id);

--
-- Name: tasks tasks_created_by_api_key_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tasks
    ADD CONSTRAINT tasks_created_by_api_key_id_fkey FOREIGN KEY (created_by_api_key_id) REFERENCES public.api_keys(id) ON DELETE SET NULL;

--
-- Name: tasks tasks_created_by_grant_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tasks
    ADD CONSTRAINT tasks_created_by_grant_id_fkey FOREIGN KEY (created_by_grant_id) REFERENCES public.oauth_grants(id) ON DELETE SET NULL;

--
-- Name: tasks tasks_test_clock_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tasks
    ADD CONSTRAINT tasks_test_clock_id_fkey FOREIGN KEY (test_clock_id) REFERENCES public.test_clocks(id);

--
-- Name: test_clocks test_clocks_agent_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.test_clocks
    ADD CONSTRAINT test_clocks_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES public.agents(id);

--
-- Name: uploads uploads_worker_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.uploads
    ADD CONSTRAINT uploads_worker_id_fkey FOREIGN KEY (worker_id) REFERENCES public.workers(id);

--
-- Name: webhook_deliveries webhook_deliveries_agent_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES public.agents(id);

--
-- Name: webhook_deliveries webhook_deliveries_endpoint_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_endpoint_id_fkey FOREIGN KEY (endpoint_id) REFERENCES public.webhook_endpoints(id);

--
-- Name: webhook_delivery_attempts webhook_delivery_attempts_delivery_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_delivery_attempts
    ADD CONSTRAINT webhook_delivery_attempts_delivery_id_fkey FOREIGN KEY (delivery_id) REFERENCES public.webhook_deliveries(id);

--
-- Name: webhook_endpoints webhook_endpoints_agent_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_endpoints
    ADD CONSTRAINT webhook_endpoints_agent_id_fkey FOREIGN KEY (agent_id) REFERENCES public.agents(id);

--
-- Name: withdrawal_identity_holds withdrawal_identity_holds_withdrawal_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.withdrawal_identity_holds
    ADD CONSTRAINT withdrawal_identity_holds_withdrawal_id_fkey FOREIGN KEY (withdrawal_id) REFERENCES public.withdrawals(id);

--
-- Name: withdrawals withdrawals_reviewed_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.withdrawals
    ADD CONSTRAINT withdrawals_reviewed_by_fkey FOREIGN KEY (reviewed_by) REFERENCES public.admins(id);

--
-- Name: withdrawals withdrawals_worker_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.withdrawals
    ADD CONSTRAINT withdrawals_worker_id_fkey FOREIGN KEY (worker_id) REFERENCES public.workers(id);

--
-- Name: worker_availability worker_availability_worker_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.worker_availability
    ADD CONSTRAINT worker_availability_worker_id_fkey FOREIGN KEY (worker_id) REFERENCES public.workers(id) ON DELETE CASCADE;

--
-- Name: worker_consents worker_consents_kind_version_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.worker_consents
    ADD CONSTRAINT worker_consents_kind_version_fkey FOREIGN KEY (kind, version) REFERENCES public.consent_versions(kind, version);

--
-- Name: worker_consents worker_consents_worker_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.worker_consents
    ADD CONSTRAINT worker_consents_worker_id_fkey FOREIGN KEY (worker_id) REFERENCES public.workers(id);

--
-- Name: worker_notification_deliveries worker_notification_deliveries_notification_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.worker_notification_deliveries
    ADD CONSTRAINT worker_notification_deliveries_notification_id_fkey FOREIGN KEY (notification_id) REFERENCES public.worker_notifications(id) ON DELETE CASCADE;

--
-- Name: worker_notifications worker_notifications_assignment_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.worker_notifications
    ADD CONSTRAINT worker_notifications_assignment_id_fkey FOREIGN KEY (assignment_id) REFERENCES public.assignments(id);

--
-- Name: worker_notifications worker_notifications_task_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.worker_notifications
    ADD CONSTRAINT worker_notifications_task_id_fkey FOREIGN KEY (task_id) REFERENCES public.tasks(id);

--
-- Name: worker_notifications worker_notifications_worker_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.worker_notifications
    ADD CONSTRAINT worker_notifications_worker_id_fkey FOREIGN KEY (worker_id) REFERENCES public.workers(id);

--
-- Name: worker_review_requests worker_review_requests_admin_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.worker_review_requests
    ADD CONSTRAINT worker_review_requests_admin_id_fkey FOREIGN KEY (admin_id) REFERENCES public.admins(id);

--
-- Name: worker_review_requests worker_review_requests_worker_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.worker_review_requests
    ADD CONSTRAINT worker_review_requests_worker_id_fkey FOREIGN KEY (worker_id) REFERENCES public.workers(id);

--
-- Name: worker_suspensions worker_suspensions_created_by_admin_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.worker_suspensions
    ADD CONSTRAINT worker_suspensions_created_by_admin_id_fkey FOREIGN KEY (created_by_admin_id) REFERENCES public.admins(id);

--
-- Name: worker_suspensions worker_suspensions_worker_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.worker_suspensions
    ADD CONSTRAINT worker_suspensions_worker_id_fkey FOREIGN KEY (worker_id) REFERENCES public.workers(id);

--
-- Name: workers workers_simulated_by_agent_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.workers
    ADD CONSTRAINT workers_simulated_by_agent_id_fkey FOREIGN KEY (simulated_by_agent_id) REFERENCES public.agents(id);

--
-- PostgreSQL database dump complete
--
