-- Quote pricing engine for a B2B shop: list price lookup, quantity tier
-- discounts, customer-specific contract discounts, coupon codes with
-- validity windows, a price floor, and tax - each step in its own
-- labelled nested block so the running figures can be inspected.  Old
-- helper functions in the codebase still use positional $n parameters
-- and ALIAS.
-- Exercises: nested DECLARE blocks with labels, variable shadowing and
-- label-qualified references (outer_blk.var), block-local defaults that are
-- re-evaluated on each entry, CONSTANT (assignment to it is rejected at
-- CREATE time), NOT NULL with default, ALIAS FOR $n, $n references,
-- SELECT INTO several numeric(10,2) variables, argument coercion of
-- text/numeric literals, FOUND, IF/ELSIF/ELSE, searched CASE expressions,
-- EXIT from a labelled block, RAISE NOTICE tracing, RETURN numeric.

CREATE TABLE price_list (
    sku    text PRIMARY KEY,
    price  numeric(10,2) NOT NULL,
    floor  numeric(10,2) NOT NULL
);

CREATE TABLE contract (
    customer  text,
    sku       text,          -- NULL means all products
    pct       numeric(5,2) NOT NULL
);

CREATE TABLE coupon (
    code        text PRIMARY KEY,
    pct         numeric(5,2),
    amount_off  numeric(10,2),
    valid_from  date NOT NULL,
    valid_to    date NOT NULL
);

INSERT INTO price_list VALUES ('CHAIR', 120.00, 80.00), ('DESK', 450.00, 300.00),
                              ('LAMP', 35.50, 20.00);
INSERT INTO contract VALUES ('acme', NULL, 5.00), ('acme', 'DESK', 12.50),
                            ('globex', 'LAMP', 30.00);
INSERT INTO coupon VALUES ('SPRING10', 10, NULL, '2024-03-01', '2024-05-31'),
                          ('FLAT50', NULL, 50, '2024-01-01', '2024-12-31'),
                          ('OLD', 25, NULL, '2020-01-01', '2020-12-31');

-- legacy helper: tier discount in percent for a quantity
CREATE FUNCTION tier_pct(integer)
RETURNS numeric
LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    qty ALIAS FOR $1;
BEGIN
    RETURN CASE WHEN qty >= 100 THEN 15
                WHEN qty >= 50  THEN 10
                WHEN $1 >= 10   THEN 5
                ELSE 0 END;
END;
$$;

CREATE FUNCTION quote(p_customer text, p_sku text, p_qty integer,
                      p_coupon text DEFAULT NULL, p_on date DEFAULT '2024-04-15',
                      p_trace boolean DEFAULT false)
RETURNS numeric
LANGUAGE plpgsql
AS $$
<<outer_blk>>
DECLARE
    c_tax      CONSTANT numeric := 0.2;
    unit       numeric(10,2);
    floor_p    numeric(10,2);
    pct        numeric NOT NULL := 0;     -- accumulated discount percent
    net        numeric;
BEGIN
    SELECT price, floor INTO unit, floor_p FROM price_list WHERE sku = upper(p_sku);
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown product %', p_sku USING ERRCODE = 'PR404';
    END IF;
    IF p_qty IS NULL OR p_qty < 1 THEN
        RAISE EXCEPTION 'quantity must be at least 1' USING ERRCODE = 'PR400';
    END IF;

    <<tiers>>
    DECLARE
        pct numeric := tier_pct(p_qty);   -- shadows outer pct
    BEGIN
        outer_blk.pct := outer_blk.pct + pct;
        IF p_trace THEN
            RAISE NOTICE 'tier: % %% (running %)', tiers.pct, outer_blk.pct;
        END IF;
    END tiers;

    <<contracts>>
    DECLARE
        best numeric;
    BEGIN
        EXIT contracts WHEN p_customer IS NULL;
        SELECT max(c.pct) INTO best FROM contract c
         WHERE c.customer = p_customer AND (c.sku = upper(p_sku) OR c.sku IS NULL);
        IF best IS NOT NULL THEN
            pct := pct + best;
            IF p_trace THEN
                RAISE NOTICE 'contract: % %% (running %)', best, pct;
            END IF;
        END IF;
    END contracts;

    net := unit * p_qty * (100 - pct) / 100;

    <<coupons>>
    DECLARE
        cp record;
    BEGIN
        IF p_coupon IS NULL THEN
            EXIT coupons;
        END IF;
        SELECT * INTO cp FROM coupon WHERE code = upper(p_coupon);
        IF NOT FOUND THEN
            RAISE EXCEPTION 'coupon % does not exist', p_coupon USING ERRCODE = 'PR410';
        ELSIF p_on NOT BETWEEN cp.valid_from AND cp.valid_to THEN
            RAISE EXCEPTION 'coupon % is not valid on %', cp.code, p_on
                USING ERRCODE = 'PR411',
                      DETAIL = format('valid from %s to %s', cp.valid_from, cp.valid_to);
        ELSIF cp.pct IS NOT NULL THEN
            net := net * (100 - cp.pct) / 100;
        ELSE
            net := net - cp.amount_off;
        END IF;
        IF p_trace THEN
            RAISE NOTICE 'coupon %: net now %', cp.code, round(net, 2);
        END IF;
    END coupons;

    IF net < floor_p * p_qty THEN
        IF p_trace THEN
            RAISE NOTICE 'floor applied: % < %', round(net, 2), floor_p * p_qty;
        END IF;
        net := floor_p * p_qty;
    END IF;
    RETURN round(net * (1 + c_tax), 2);
END outer_blk;
$$;

SELECT tier_pct(1), tier_pct(10), tier_pct(75), tier_pct(500);
SELECT quote(NULL, 'chair', 1);
SELECT quote('acme', 'DESK', 2, p_trace => true);
SELECT quote('acme', 'chair', 60, 'spring10', p_trace => true);
SELECT quote('globex', 'lamp', 120, 'FLAT50', p_trace => true);
SELECT quote('initech', 'lamp', 3, 'flat50', '2025-01-01');
SELECT quote('initech', 'lamp', 3, 'free');
SELECT quote('initech', 'sofa', 3);
SELECT quote('initech', 'lamp', 0);
-- text and numeric arguments coerced to the integer parameter
SELECT quote('acme', 'lamp', '12');
SELECT quote('acme', 'lamp', 12.6::integer);

-- Block-local defaults are evaluated every time the block is entered.
CREATE FUNCTION price_ladder(p_sku text, p_steps integer)
RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
    out_s text := '';
    q     integer := 1;
BEGIN
    WHILE q <= p_steps LOOP
        DECLARE
            each_q numeric := quote(NULL, p_sku, q * 25) / (q * 25);
            note   text;              -- reset to NULL on every entry
        BEGIN
            IF note IS NOT NULL THEN
                RAISE EXCEPTION 'block variable kept its old value';
            END IF;
            note := format('%s@%s', q * 25, round(each_q, 2));
            out_s := out_s || note || ' ';
        END;
        q := q + 1;
    END LOOP;
    RETURN rtrim(out_s);
END;
$$;
SELECT price_ladder('chair', 5);

-- Assigning to a CONSTANT is refused when the function is created.
CREATE FUNCTION bad_tax()
RETURNS numeric
LANGUAGE plpgsql
AS $$
DECLARE
    c_tax CONSTANT numeric := 0.2;
BEGIN
    c_tax := 0.25;
    RETURN c_tax;
END;
$$;
