-- text_append: one ever-growing string, s := s || 'k' || i::text || ','.
--
-- Under PL/pgSQL every append copies the whole string, so n appends cost
-- O(n^2); plnimble appends in place (src/exec/text_append.c).
--
-- text_append: 100k appends to one string, both languages.
-- text_append_flat_small / text_append_flat_large: the same number of
-- appends, M, as M/F strings of F appends each and as one string of M
-- appends; their ratio on plnimble is the cost per append at M over the
-- cost at F (flat: <= 1.5).  Built by appending, one string of 1M would
-- take hours under PL/pgSQL, so on the PL/pgSQL side that case builds the
-- same string with string_agg: only its plnimble time means anything
-- (target info); the answers still have to agree.
--
-- @desc    100k appends to one text variable; cost per append at 10k and 1M
-- @group   exec
-- @order   135
-- @param   N 100000
-- @param   F 10000
-- @param   M 1000000
-- @case    text_append            | >=50 | n=@N@ | SELECT text_append_@LANG@(1, @N@, false)
-- @case    text_append_flat_small | info | n=@M@ | SELECT text_append_@LANG@(@M@ / @F@, @F@, false)
-- @case    text_append_flat_large | info | n=@M@ | SELECT text_append_@LANG@(1, @M@, true)
-- @derived per-append cost, @M@ appends / @F@ appends, plnimble | text_append_flat_large.plnimble / text_append_flat_small.plnimble | <=1.5

-- @@functions
CREATE FUNCTION text_append_@LANG@(strings int, n int, agg_on_plpgsql boolean) RETURNS text LANGUAGE @LANG@ AS $$
DECLARE
  s text;
  total bigint := 0;
  sums text := '';
BEGIN
  FOR j IN 1..strings LOOP
    s := '';
    IF '@LANG@' = 'plpgsql' AND agg_on_plpgsql THEN
      -- (see the header) the same string, built without appending
      SELECT string_agg('k' || i::text || ',', '' ORDER BY i) INTO s
        FROM generate_series(1, n) i;
    ELSE
      FOR i IN 1..n LOOP
        s := s || 'k' || i::text || ',';
      END LOOP;
    END IF;
    total := total + length(s);
    IF j = strings THEN
      sums := md5(s);
    END IF;
  END LOOP;
  RETURN total || ' ' || sums;
END
$$;
