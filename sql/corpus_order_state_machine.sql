-- Order lifecycle state machine from an e-commerce backend: a transition
-- table encoded in a CASE statement, guards per transition (payment must
-- cover the total, cannot ship without an address, refunds only after
-- delivery), an append-only status history, and a bulk "advance all
-- orders" job that reports what it did.
-- Exercises: CASE statement with searched and simple forms, nested CASE,
-- CASE without ELSE raising case_not_found, IF/ELSIF, record variable from
-- SELECT INTO ... FOR UPDATE, rec.field reads, FOUND, RAISE EXCEPTION with
-- custom ERRCODE and HINT, RETURN from inside CASE, FOR rec IN query with
-- nested exception block, SQLSTATE-based branching, labels with EXIT
-- from an inner block, INSERT ... RETURNING INTO.

CREATE TABLE shop_order (
    id        integer PRIMARY KEY,
    status    text NOT NULL DEFAULT 'new',
    total     numeric(10,2) NOT NULL,
    paid      numeric(10,2) NOT NULL DEFAULT 0,
    address   text
);

CREATE TABLE order_history (
    seq        serial PRIMARY KEY,
    order_id   integer NOT NULL,
    from_state text,
    to_state   text NOT NULL,
    note       text
);

INSERT INTO shop_order(id, total, paid, address) VALUES
    (1, 50.00,  0,     '1 Main St'),
    (2, 80.00,  80.00, NULL),
    (3, 19.99,  19.99, '9 Elm Rd'),
    (4, 120.00, 100.00, '4 Oak Ave'),
    (5, 10.00,  10.00, '5 Pine Ct');

CREATE FUNCTION next_state(p_state text, p_event text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
AS $$
BEGIN
    CASE p_state
        WHEN 'new' THEN
            CASE p_event
                WHEN 'pay'    THEN RETURN 'paid';
                WHEN 'cancel' THEN RETURN 'cancelled';
                ELSE NULL;
            END CASE;
        WHEN 'paid' THEN
            IF p_event = 'ship' THEN
                RETURN 'shipped';
            ELSIF p_event = 'cancel' THEN
                RETURN 'refund_pending';
            END IF;
        WHEN 'shipped' THEN
            IF p_event = 'deliver' THEN RETURN 'delivered'; END IF;
            IF p_event = 'lose' THEN RETURN 'refund_pending'; END IF;
        WHEN 'delivered' THEN
            IF p_event = 'return' THEN RETURN 'refund_pending'; END IF;
        WHEN 'refund_pending' THEN
            IF p_event = 'refund' THEN RETURN 'refunded'; END IF;
        WHEN 'cancelled', 'refunded' THEN
            RAISE EXCEPTION 'order is already closed (%)', p_state
                USING ERRCODE = 'OS002';
    END CASE;
    RAISE EXCEPTION 'event "%" is not allowed in state "%"', p_event, p_state
        USING ERRCODE = 'OS001',
              HINT = CASE p_state
                         WHEN 'new' THEN 'allowed: pay, cancel'
                         WHEN 'paid' THEN 'allowed: ship, cancel'
                         WHEN 'shipped' THEN 'allowed: deliver, lose'
                         WHEN 'delivered' THEN 'allowed: return'
                         ELSE 'allowed: refund' END;
END;
$$;

CREATE FUNCTION apply_event(p_order integer, p_event text, p_note text DEFAULT NULL)
RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
    o        record;
    v_next   text;
    v_seq    integer;
BEGIN
    SELECT id, status, total, paid, address INTO o
      FROM shop_order WHERE id = p_order FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'order % not found', p_order USING ERRCODE = 'OS404';
    END IF;

    v_next := next_state(o.status, p_event);

    -- guards
    CASE
        WHEN v_next = 'paid' AND o.paid < o.total THEN
            RAISE EXCEPTION 'order % is underpaid', p_order
                USING ERRCODE = 'OS003',
                      DETAIL = format('paid %s of %s', o.paid, o.total);
        WHEN v_next = 'shipped' AND o.address IS NULL THEN
            RAISE EXCEPTION 'order % has no shipping address', p_order
                USING ERRCODE = 'OS004', HINT = 'ask the customer for an address';
        ELSE
            NULL;
    END CASE;

    UPDATE shop_order SET status = v_next WHERE id = p_order;
    INSERT INTO order_history(order_id, from_state, to_state, note)
    VALUES (p_order, o.status, v_next, coalesce(p_note, p_event))
    RETURNING seq INTO v_seq;
    RAISE NOTICE 'order %: % -> % (history #%)', p_order, o.status, v_next, v_seq;
    RETURN v_next;
END;
$$;

SELECT next_state('new', 'pay'), next_state('paid', 'ship'), next_state('shipped', 'lose');
SELECT next_state('delivered', 'ship');
SELECT next_state('refunded', 'refund');
SELECT next_state('archived', 'pay');

SELECT apply_event(1, 'pay');
UPDATE shop_order SET paid = 50 WHERE id = 1;
SELECT apply_event(1, 'pay', 'card ending 4242');
SELECT apply_event(1, 'ship');
SELECT apply_event(1, 'deliver');
SELECT apply_event(1, 'return');
SELECT apply_event(1, 'refund');
SELECT apply_event(1, 'refund');
SELECT apply_event(2, 'pay');
SELECT apply_event(2, 'ship');
SELECT apply_event(99, 'pay');

-- Bulk job: drive every open order through a scripted event sequence,
-- stopping each order at its first failure, and summarise.
CREATE FUNCTION advance_all(p_events text)
RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
    o        record;
    ev       text;
    i        integer;
    moved    integer := 0;
    stuck    integer := 0;
BEGIN
    FOR o IN SELECT id FROM shop_order
              WHERE status NOT IN ('cancelled', 'refunded')
              ORDER BY id
    LOOP
        i := 1;
        <<events>>
        LOOP
            ev := split_part(p_events, ',', i);
            EXIT events WHEN ev = '';
            BEGIN
                PERFORM apply_event(o.id, ev, 'bulk');
                moved := moved + 1;
            EXCEPTION WHEN OTHERS THEN
                stuck := stuck + 1;
                RAISE NOTICE 'order % stuck at "%": % [%]', o.id, ev, SQLERRM,
                    CASE left(SQLSTATE, 2) WHEN 'OS' THEN 'business rule' ELSE 'system' END;
                EXIT events;
            END;
            i := i + 1;
        END LOOP events;
    END LOOP;
    RETURN format('%s transition(s), %s order(s) stuck', moved, stuck);
END;
$$;

SELECT advance_all('pay,ship,deliver');
SELECT id, status, total, paid, address FROM shop_order ORDER BY id;
SELECT order_id, from_state, to_state, note FROM order_history ORDER BY seq;
SELECT status, count(*) FROM shop_order GROUP BY status ORDER BY status;
