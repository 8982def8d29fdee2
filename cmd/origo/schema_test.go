package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// A jsonSchema validates JSON documents against a JSON Schema (draft 4),
// for the keywords the SARIF 2.1.0 schema uses: $ref to its definitions,
// type, properties, additionalProperties, required, enum, items,
// minItems, uniqueItems, minimum, maximum, pattern, format (uri,
// uri-reference, date-time), oneOf and anyOf. A schema with another
// keyword is refused, so that nothing is left unchecked unseen.
type jsonSchema struct {
	root map[string]any
}

// annotations are the keywords that say nothing about validity.
var annotations = []string{"$schema", "id", "title", "description", "default", "definitions"}

// validating are the keywords checked.
var validating = []string{"$ref", "type", "properties", "additionalProperties", "required", "enum", "items", "minItems", "uniqueItems", "minimum", "maximum", "pattern", "format", "oneOf", "anyOf"}

// loadSchema reads a schema and checks that it uses only the keywords
// the validator knows.
func loadSchema(name string) (*jsonSchema, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	root, err := decodeJSON(data)
	if err != nil {
		return nil, err
	}
	m, ok := root.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: not a schema object", name)
	}
	s := &jsonSchema{root: m}
	if err := s.check(m, "#"); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return s, nil
}

// decodeJSON decodes JSON with numbers as json.Number, so that an
// integer is told from a number.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// check refuses a schema, or a schema inside it, with a keyword the
// validator does not know.
func (s *jsonSchema) check(schema map[string]any, at string) error {
	for k, v := range schema {
		switch {
		case k == "properties" || k == "definitions":
			for name, sub := range v.(map[string]any) {
				if err := s.check(sub.(map[string]any), at+"/"+k+"/"+name); err != nil {
					return err
				}
			}
		case k == "items" || k == "additionalProperties":
			if sub, ok := v.(map[string]any); ok {
				if err := s.check(sub, at+"/"+k); err != nil {
					return err
				}
			}
		case k == "oneOf" || k == "anyOf":
			for i, sub := range v.([]any) {
				if err := s.check(sub.(map[string]any), fmt.Sprintf("%s/%s/%d", at, k, i)); err != nil {
					return err
				}
			}
		case k == "format":
			if f := v.(string); f != "uri" && f != "uri-reference" && f != "date-time" {
				return fmt.Errorf("%s: unknown format %q", at, f)
			}
		case k == "$ref":
			if _, err := s.resolve(v.(string)); err != nil {
				return fmt.Errorf("%s: %v", at, err)
			}
		case slices.Contains(annotations, k) || slices.Contains(validating, k):
		default:
			return fmt.Errorf("%s: keyword %q not supported", at, k)
		}
	}
	return nil
}

// resolve returns the schema a $ref names: "#/definitions/NAME".
func (s *jsonSchema) resolve(ref string) (map[string]any, error) {
	name, ok := strings.CutPrefix(ref, "#/definitions/")
	if !ok {
		return nil, fmt.Errorf("$ref %q: only #/definitions/NAME is supported", ref)
	}
	defs, _ := s.root["definitions"].(map[string]any)
	def, ok := defs[name].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("$ref %q: no such definition", ref)
	}
	return def, nil
}

// validate returns the ways v, at the JSON pointer at, breaks schema,
// one line each.
func (s *jsonSchema) validate(schema map[string]any, v any, at string) []string {
	var errs []string
	fail := func(format string, args ...any) {
		errs = append(errs, at+": "+fmt.Sprintf(format, args...))
	}
	if ref, ok := schema["$ref"].(string); ok {
		def, err := s.resolve(ref)
		if err != nil {
			fail("%v", err)
			return errs
		}
		errs = append(errs, s.validate(def, v, at)...)
	}
	if t, ok := schema["type"]; ok {
		var types []string
		switch t := t.(type) {
		case string:
			types = []string{t}
		case []any:
			for _, x := range t {
				types = append(types, x.(string))
			}
		}
		if !slices.ContainsFunc(types, func(t string) bool { return hasType(v, t) }) {
			fail("%s, want type %s", jsonType(v), strings.Join(types, " or "))
			return errs
		}
	}
	if enum, ok := schema["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return reflect.DeepEqual(e, v) }) {
		fail("%v is not one of %v", v, enum)
	}
	switch v := v.(type) {
	case map[string]any:
		props, _ := schema["properties"].(map[string]any)
		required, _ := schema["required"].([]any)
		for _, r := range required {
			if _, ok := v[r.(string)]; !ok {
				fail("required property %q missing", r)
			}
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if sub, ok := props[k].(map[string]any); ok {
				errs = append(errs, s.validate(sub, v[k], at+"/"+k)...)
				continue
			}
			switch add := schema["additionalProperties"].(type) {
			case bool:
				if !add {
					fail("property %q not allowed", k)
				}
			case map[string]any:
				errs = append(errs, s.validate(add, v[k], at+"/"+k)...)
			}
		}
	case []any:
		if n, ok := schema["minItems"].(json.Number); ok {
			if min, _ := n.Int64(); int64(len(v)) < min {
				fail("%d items, want at least %d", len(v), min)
			}
		}
		if u, _ := schema["uniqueItems"].(bool); u {
			for i := range v {
				for j := range i {
					if reflect.DeepEqual(v[i], v[j]) {
						fail("items %d and %d are equal", j, i)
					}
				}
			}
		}
		if items, ok := schema["items"].(map[string]any); ok {
			for i, x := range v {
				errs = append(errs, s.validate(items, x, fmt.Sprintf("%s/%d", at, i))...)
			}
		}
	case json.Number:
		f, _ := v.Float64()
		if n, ok := schema["minimum"].(json.Number); ok {
			if min, _ := n.Float64(); f < min {
				fail("%v is less than the minimum %v", v, n)
			}
		}
		if n, ok := schema["maximum"].(json.Number); ok {
			if max, _ := n.Float64(); f > max {
				fail("%v is more than the maximum %v", v, n)
			}
		}
	case string:
		if p, ok := schema["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(v) {
			fail("%q does not match %s", v, p)
		}
		switch schema["format"] {
		case "uri":
			if u, err := url.Parse(v); err != nil || u.Scheme == "" {
				fail("%q is not an absolute URI", v)
			}
		case "uri-reference":
			if _, err := url.Parse(v); err != nil {
				fail("%q is not a URI reference", v)
			}
		case "date-time":
			if _, err := time.Parse(time.RFC3339, v); err != nil {
				fail("%q is not a date-time", v)
			}
		}
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		subs, ok := schema[k].([]any)
		if !ok {
			continue
		}
		valid := 0
		for _, sub := range subs {
			if len(s.validate(sub.(map[string]any), v, at)) == 0 {
				valid++
			}
		}
		if k == "oneOf" && valid != 1 || k == "anyOf" && valid == 0 {
			fail("%d of the %d schemas of %s hold", valid, len(subs), k)
		}
	}
	return errs
}

// Validate validates a JSON document against the schema.
func (s *jsonSchema) Validate(data []byte) []string {
	v, err := decodeJSON(data)
	if err != nil {
		return []string{err.Error()}
	}
	return s.validate(s.root, v, "")
}

func hasType(v any, t string) bool {
	switch t {
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		_, err := n.Int64()
		return err == nil
	case "number":
		_, ok := v.(json.Number)
		return ok
	}
	return jsonType(v) == t
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// sarifSchemaFile is the SARIF 2.1.0 schema (see its README).
const sarifSchemaFile = "testdata/sarif/sarif-schema-2.1.0.json"

// TestSchemaValidator checks the validator on the SARIF schema itself:
// a minimal log holds, and each mistake in a broken one is found.
func TestSchemaValidator(t *testing.T) {
	s, err := loadSchema(sarifSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	ok := `{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x", "informationUri": "https://example.com"}},
		"columnKind": "utf16CodeUnits", "results": [{"message": {"text": "m"}, "ruleIndex": 0,
		"locations": [{"physicalLocation": {"artifactLocation": {"uri": "a.go", "uriBaseId": "%SRCROOT%"}, "region": {"startLine": 1}}}]}]}]}`
	if errs := s.Validate([]byte(ok)); len(errs) > 0 {
		t.Errorf("a valid log: %s", strings.Join(errs, "\n"))
	}
	bad := `{"version": "2.0.0", "extra": 1, "runs": [{"tool": {"driver": {"informationUri": "not a URI"}},
		"columnKind": "bytes", "results": [{"message": {"text": "m"}, "ruleIndex": -2, "level": "severe",
		"locations": [{"physicalLocation": {"region": {"startLine": "1"}}}]}]}]}`
	errs := s.Validate([]byte(bad))
	for _, want := range []string{
		`/version: 2.0.0 is not one of [2.1.0]`,
		`/runs/0/results/0/locations/0/physicalLocation: 0 of the 2 schemas of anyOf hold`,
		`: property "extra" not allowed`,
		`/runs/0/tool/driver: required property "name" missing`,
		`/runs/0/tool/driver/informationUri: "not a URI" is not an absolute URI`,
		`/runs/0/columnKind: bytes is not one of [utf16CodeUnits unicodeCodePoints]`,
		`/runs/0/results/0/ruleIndex: -2 is less than the minimum -1`,
		`/runs/0/results/0/level: severe is not one of [none note warning error]`,
		`/runs/0/results/0/locations/0/physicalLocation/region/startLine: string, want type integer`,
	} {
		if !slices.Contains(errs, want) {
			t.Errorf("the broken log: no error %q among\n%s", want, strings.Join(errs, "\n"))
		}
	}
	if _, err := loadSchema(writeTemp(t, `{"type": "object", "patternProperties": {}}`)); err == nil || !strings.Contains(err.Error(), `keyword "patternProperties" not supported`) {
		t.Errorf("a schema with an unknown keyword: %v", err)
	}
}

func writeTemp(t *testing.T, text string) string {
	t.Helper()
	name := t.TempDir() + "/schema.json"
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}
