-- Text normalisation utilities from a CMS: slug generation with accent
-- folding and uniqueness suffixes, whitespace squeezing, word-boundary
-- truncation with ellipsis, title casing with small-word exceptions, and
-- a simple "initials" helper.
-- Exercises: string functions in expressions (lower, upper, translate,
-- replace, regexp_replace, split_part, substr, position, reverse, length,
-- left, btrim, rtrim, concat_ws, nullif), character-by-character WHILE
-- loop, integer FOR with EXIT WHEN, labelled LOOP with EXIT label WHEN,
-- CASE expressions, IF/ELSIF chains, NULL statement, $n params, ALIAS FOR
-- $n, CONSTANT, IMMUTABLE STRICT functions, SELECT INTO with FOUND for
-- uniqueness, RAISE with USING ERRCODE.

CREATE FUNCTION fold_accents(text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT
AS $$
DECLARE
    src   ALIAS FOR $1;
    c_from CONSTANT text := 'àáâãäåèéêëìíîïòóôõöøùúûüýÿñçÀÁÂÃÄÅÈÉÊËÌÍÎÏÒÓÔÕÖØÙÚÛÜÝÑÇ';
    c_to   CONSTANT text := 'aaaaaaeeeeiiiioooooouuuuyyncAAAAAAEEEEIIIIOOOOOOUUUUYNC';
BEGIN
    RETURN replace(replace(replace(translate(src, c_from, c_to),
                                   'ß', 'ss'), 'æ', 'ae'), 'Æ', 'AE');
END;
$$;

CREATE FUNCTION squeeze_spaces(p text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
AS $$
BEGIN
    RETURN btrim(regexp_replace(p, '\s+', ' ', 'g'));
END;
$$;

CREATE FUNCTION slugify(p_title text, p_max integer DEFAULT 40)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    s text;
BEGIN
    IF p_title IS NULL THEN
        RETURN NULL;
    END IF;
    s := lower(fold_accents(p_title));
    s := regexp_replace(s, '&', ' and ', 'g');
    s := regexp_replace(s, '[^a-z0-9]+', '-', 'g');
    s := btrim(s, '-');
    IF length(s) > p_max THEN
        s := left(s, p_max);
        -- do not cut in the middle of a word if a dash is reasonably close
        IF position('-' IN reverse(s)) BETWEEN 1 AND 10 THEN
            s := left(s, length(s) - position('-' IN reverse(s)));
        END IF;
    END IF;
    IF s = '' THEN
        RAISE EXCEPTION 'title "%" produces an empty slug', p_title
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN s;
END;
$$;

CREATE TABLE article (
    id     integer PRIMARY KEY,
    title  text NOT NULL,
    slug   text UNIQUE
);

-- Assigns a unique slug, appending -2, -3, ... on collision.
CREATE FUNCTION assign_slug(p_id integer)
RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
    v_title  text;
    v_base   text;
    v_try    text;
    v_other  integer;
    n        integer := 1;
BEGIN
    SELECT title INTO v_title FROM article WHERE id = $1;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'article % not found', $1 USING ERRCODE = 'no_data_found';
    END IF;
    v_base := slugify(v_title, 30);
    v_try := v_base;
    LOOP
        SELECT id INTO v_other FROM article WHERE slug = v_try AND id <> p_id;
        EXIT WHEN NOT FOUND;
        n := n + 1;
        v_try := v_base || '-' || n;
    END LOOP;
    UPDATE article SET slug = v_try WHERE id = p_id;
    RETURN v_try;
END;
$$;

CREATE FUNCTION truncate_words(p_text text, p_limit integer, p_tail text DEFAULT '...')
RETURNS text
LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    clean  text := squeeze_spaces(p_text);
    word   text;
    result text := '';
    i      integer;
BEGIN
    IF length(clean) <= p_limit THEN
        RETURN clean;
    END IF;
    FOR i IN 1..length(clean) LOOP      -- upper bound: one word per char
        word := split_part(clean, ' ', i);
        EXIT WHEN word = '';
        EXIT WHEN length(result) + length(word) + 1 + length(p_tail) > p_limit;
        result := concat_ws(' ', nullif(result, ''), word);
    END LOOP;
    IF result = '' THEN
        -- a single very long word: hard cut
        result := left(clean, greatest(p_limit - length(p_tail), 1));
    END IF;
    RETURN result || p_tail;
END;
$$;

CREATE FUNCTION title_case(p text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    c_small CONSTANT text := ' a an and as at but by for in of on or the to ';
    words   text := squeeze_spaces(p);
    w       text;
    out_s   text := '';
    i       integer := 1;
BEGIN
    <<each_word>>
    LOOP
        w := split_part(words, ' ', i);
        EXIT each_word WHEN w = '';
        IF i > 1 AND position(' ' || lower(w) || ' ' IN c_small) > 0 THEN
            w := lower(w);
        ELSIF w ~ '^[A-Z0-9]{2,}$' THEN
            NULL;                               -- keep acronyms
        ELSE
            w := upper(left(w, 1)) || lower(substr(w, 2));
        END IF;
        out_s := out_s || CASE WHEN i > 1 THEN ' ' ELSE '' END || w;
        i := i + 1;
    END LOOP each_word;
    RETURN out_s;
END;
$$;

CREATE FUNCTION initials(p_name text)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    pos     integer := 1;
    ch      text;
    prev    text := ' ';
    result  text := '';
BEGIN
    WHILE pos <= length(p_name) LOOP
        ch := substr(p_name, pos, 1);
        IF prev IN (' ', '-') AND ch ~ '[[:alpha:]]' THEN
            result := result || upper(ch);
        END IF;
        prev := ch;
        pos := pos + 1;
    END LOOP;
    RETURN result;
END;
$$;

SELECT fold_accents('Crème brûlée à la Straße, Ærø'), fold_accents(NULL);
SELECT squeeze_spaces(E'  many \t\t spaces\n here  ');
SELECT t, slugify(t)
  FROM unnest(ARRAY['Hello, World!', '  Ça va? Très bien & merci  ',
                    'PostgreSQL 15: What''s New', NULL]) t;
SELECT slugify('---');
SELECT slugify('The Quick Brown Fox Jumps Over The Lazy Dog Again And Again', 30);
SELECT slugify('Supercalifragilisticexpialidocious-and-more', 20);

INSERT INTO article(id, title) VALUES
    (1, 'Release Notes'), (2, 'Release notes!'), (3, 'RELEASE -- NOTES'),
    (4, 'Über uns'), (5, '???');
SELECT assign_slug(id) FROM article WHERE id <= 4 ORDER BY id;
SELECT assign_slug(5);
SELECT assign_slug(6);
SELECT * FROM article ORDER BY id;

SELECT truncate_words('The quick brown fox jumps over the lazy dog', 20);
SELECT truncate_words('The quick brown fox jumps over the lazy dog', 100);
SELECT truncate_words('Pneumonoultramicroscopicsilicovolcanoconiosis is long', 12, '…');
SELECT title_case('the lord OF the rings: the return of the king');
SELECT title_case('a tale of two cities and the NASA budget');
SELECT initials('jean-luc picard'), initials('  Ada   lovelace'), initials('');
