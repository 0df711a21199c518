-- Exam grading for a course-management system (LATER FEATURES): answer
-- sheets stored as arrays are scored against an answer key with
-- per-question weights, statistics are returned through OUT parameters,
-- letter grades use a threshold array, and student rows are handled as
-- %ROWTYPE / composite values.
-- Later features used: array variables (declaration, subscripts,
-- array_length, array_append/||, slicing, ARRAY[] constructors,
-- multidimensional arrays), FOREACH ... IN ARRAY (with SLICE), OUT and
-- INOUT parameters, %ROWTYPE and %TYPE declarations, composite-type
-- returns, SELECT INTO a %ROWTYPE variable, RETURNS SETOF composite with
-- RETURN NEXT, GET DIAGNOSTICS.
-- Slice features also used: integer FOR over array bounds, CASE, RAISE
-- EXCEPTION USING ERRCODE/DETAIL, exception blocks, numeric rounding.

CREATE TABLE exam (
    id       integer PRIMARY KEY,
    title    text NOT NULL,
    answers  text[] NOT NULL,
    weights  numeric[] NOT NULL
);

CREATE TABLE student (
    id     integer PRIMARY KEY,
    name   text NOT NULL,
    cohort text NOT NULL
);

CREATE TABLE submission (
    exam_id    integer REFERENCES exam,
    student_id integer REFERENCES student,
    answers    text[],
    score      numeric(5,2),
    grade      text,
    PRIMARY KEY (exam_id, student_id)
);

INSERT INTO exam VALUES
    (1, 'SQL basics', ARRAY['b','a','d','c','a'], ARRAY[1, 1, 2, 2, 4]),
    (2, 'Broken key', ARRAY['a','b'], ARRAY[1]);

INSERT INTO student VALUES (1, 'Ana', 'A'), (2, 'Ben', 'A'), (3, 'Chen', 'B'),
                           (4, 'Dara', 'B'), (5, 'Eli', 'B');

INSERT INTO submission(exam_id, student_id, answers) VALUES
    (1, 1, ARRAY['b','a','d','c','a']),
    (1, 2, ARRAY['b','c','d','c','b']),
    (1, 3, ARRAY['B',' a','x', NULL,'a']),
    (1, 4, ARRAY['a','a']),
    (1, 5, ARRAY['c','c','c','c','c','c']),
    (2, 1, ARRAY['a','b']);

CREATE FUNCTION score_sheet(p_key text[], p_weights numeric[], p_sheet text[],
                            OUT points numeric, OUT max_points numeric,
                            OUT wrong integer[])
LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    n integer := array_length(p_key, 1);
BEGIN
    IF n IS DISTINCT FROM array_length(p_weights, 1) THEN
        RAISE EXCEPTION 'answer key has % questions but % weights', n, array_length(p_weights, 1)
            USING ERRCODE = 'array_subscript_error';
    END IF;
    IF coalesce(array_length(p_sheet, 1), 0) > n THEN
        RAISE EXCEPTION 'sheet has % answers for % questions', array_length(p_sheet, 1), n
            USING DETAIL = format('extra answers: %s', p_sheet[n + 1:]);
    END IF;
    points := 0;
    max_points := 0;
    wrong := '{}';
    FOR q IN 1..n LOOP
        max_points := max_points + p_weights[q];
        IF lower(btrim(p_sheet[q])) = p_key[q] THEN
            points := points + p_weights[q];
        ELSE
            wrong := wrong || q;
        END IF;
    END LOOP;
END;
$$;

CREATE FUNCTION letter(p_pct numeric)
RETURNS text
LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    -- pairs of {threshold, grade} as a two-dimensional array
    bands text[] := ARRAY[['90','A'], ['75','B'], ['60','C'], ['40','D']];
    band  text[];
BEGIN
    FOREACH band SLICE 1 IN ARRAY bands LOOP
        IF p_pct >= band[1]::numeric THEN
            RETURN band[2];
        END IF;
    END LOOP;
    RETURN 'F';
END;
$$;

SELECT * FROM score_sheet(ARRAY['a','b','c'], ARRAY[1,2,3], ARRAY['a','x','c']);
SELECT * FROM score_sheet(ARRAY['a','b','c'], ARRAY[1,2,3], NULL);
SELECT * FROM score_sheet(ARRAY['a','b'], ARRAY[1], ARRAY['a']);
SELECT * FROM score_sheet(ARRAY['a'], ARRAY[1], ARRAY['a','b','c']);
SELECT p, letter(p) FROM unnest(ARRAY[100, 90, 89.99, 60, 12]) p;

CREATE FUNCTION grade_exam(p_exam integer,
                           OUT graded integer, OUT failed integer,
                           OUT mean numeric, OUT best text)
LANGUAGE plpgsql
AS $$
DECLARE
    e       exam%ROWTYPE;
    s       submission%ROWTYPE;
    st      student%ROWTYPE;
    v_name  student.name%TYPE;
    res     record;
    pct     numeric;
    scores  numeric[] := '{}';
    top     numeric := -1;
    v       numeric;
BEGIN
    SELECT * INTO STRICT e FROM exam WHERE id = p_exam;
    graded := 0;
    failed := 0;
    FOR s IN SELECT * FROM submission WHERE exam_id = p_exam ORDER BY student_id LOOP
        SELECT * INTO st FROM student WHERE id = s.student_id;
        v_name := st.name;
        BEGIN
            res := score_sheet(e.answers, e.weights, s.answers);
            pct := round(100 * res.points / res.max_points, 2);
            UPDATE submission SET score = pct, grade = letter(pct)
             WHERE exam_id = p_exam AND student_id = s.student_id;
            scores := array_append(scores, pct);
            graded := graded + 1;
            IF pct > top THEN
                top := pct;
                best := v_name;
            END IF;
            RAISE NOTICE '%: % (wrong: %)', v_name, pct,
                CASE WHEN cardinality(res.wrong) = 0 THEN 'none'
                     ELSE array_to_string(res.wrong, ',') END;
        EXCEPTION WHEN OTHERS THEN
            failed := failed + 1;
            RAISE NOTICE '%: not graded (%)', v_name, SQLERRM;
        END;
    END LOOP;
    mean := 0;
    FOREACH v IN ARRAY scores LOOP
        mean := mean + v;
    END LOOP;
    mean := CASE WHEN graded > 0 THEN round(mean / graded, 2) END;
END;
$$;

SELECT * FROM grade_exam(1);
SELECT * FROM grade_exam(2);
SELECT * FROM grade_exam(3);
SELECT exam_id, student_id, score, grade FROM submission ORDER BY exam_id, student_id;

-- Cohort report returning student rows; INOUT counter shared with caller.
CREATE FUNCTION cohort_students(p_cohort text)
RETURNS SETOF student
LANGUAGE plpgsql
AS $$
DECLARE
    st student%ROWTYPE;
    n  integer;
BEGIN
    FOR st IN SELECT * FROM student WHERE cohort = p_cohort ORDER BY name LOOP
        st.name := upper(st.name);
        RETURN NEXT st;
    END LOOP;
    UPDATE student SET cohort = cohort WHERE cohort = p_cohort;
    GET DIAGNOSTICS n = ROW_COUNT;
    RAISE NOTICE 'cohort % has % student(s)', p_cohort, n;
END;
$$;

CREATE FUNCTION bump(INOUT counter integer, p_by integer DEFAULT 1)
LANGUAGE plpgsql
AS $$
BEGIN
    counter := counter + p_by;
END;
$$;

SELECT * FROM cohort_students('B');
SELECT (cohort_students('A')).name;
SELECT bump(41), bump(1, 10);
DO $$
DECLARE
    c integer := 0;
    ids integer[] := ARRAY[3, 1, 4, 1, 5];
    i integer;
BEGIN
    FOREACH i IN ARRAY ids[2:4] LOOP
        c := bump(c, i);
    END LOOP;
    RAISE NOTICE 'sum of slice = %, dims = %', c, array_dims(ids);
    ids[7] := 9;
    RAISE NOTICE 'extended: %', ids;
END;
$$;
