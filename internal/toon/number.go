package toon

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
)

// formatFloat formats a float64 per spec §2/§3: NaN and ±Inf become null,
// everything else the shortest decimal that round-trips, canonicalized.
func formatFloat(f float64, bits int) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "null"
	}
	s, _ := CanonicalNumber(strconv.FormatFloat(f, 'g', -1, bits))
	return s
}

// CanonicalNumber rewrites a JSON number text (RFC 8259 grammar) into the
// canonical TOON form of spec §2 without losing any digit. ok is false when
// s is not a JSON number.
func CanonicalNumber(s string) (out string, ok bool) {
	sign, intPart, frac, expText, ok := splitNumber(s)
	if !ok {
		return "", false
	}

	// value = 0.D × 10^k, D without leading or trailing zeros.
	d := strings.TrimLeft(intPart+frac, "0")
	lead := len(intPart+frac) - len(d) // leading zeros removed
	d = strings.TrimRight(d, "0")
	if d == "" {
		return "0", true // covers -0, 0.000, 0e99
	}
	// Digits before the decimal point of D, before applying the exponent.
	pointPos := int64(len(intPart) - lead)

	exp, err := int64(0), error(nil)
	if expText != "" { // ParseInt("") would allocate its error
		exp, err = strconv.ParseInt(strings.TrimPrefix(expText, "+"), 10, 64)
	}
	if err != nil || exp > 1<<40 || exp < -(1<<40) {
		// Far outside the plain-decimal range: exponent form via big.Int.
		e, _ := new(big.Int).SetString(strings.TrimPrefix(expText, "+"), 10)
		e.Add(e, big.NewInt(pointPos-1))
		return expForm(sign, d, e.String()), true
	}
	switch k := pointPos + exp; {
	case k < -5 || k > 21:
		return expForm(sign, d, strconv.FormatInt(k-1, 10)), true
	case k <= 0:
		return sign + "0." + strings.Repeat("0", int(-k)) + d, true
	case int(k) >= len(d):
		return sign + d + strings.Repeat("0", int(k)-len(d)), true
	default:
		return sign + d[:k] + "." + d[k:], true
	}
}

// splitNumber splits a JSON number text (RFC 8259 grammar) into its
// sign ("-" or ""), integer digits, fraction digits and exponent text; ok
// is false when s is not a JSON number.
func splitNumber(s string) (sign, intPart, frac, expText string, ok bool) {
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	intPart, frac, expText, ok = scanNumber(s)
	if !ok || len(intPart) > 1 && intPart[0] == '0' {
		return "", "", "", "", false
	}
	return sign, intPart, frac, expText, true
}

// scanNumber splits s, an unsigned number that may have leading zeros,
// per the grammar digits(.digits)?([eE][+-]?digits)?; expText is the text
// after the e. ok is false when s does not match.
func scanNumber(s string) (intPart, frac, expText string, ok bool) {
	digits := func(i int) int {
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		return i
	}
	i := digits(0)
	intPart = s[:i]
	if intPart == "" {
		return "", "", "", false
	}
	if i < len(s) && s[i] == '.' {
		j := digits(i + 1)
		if j == i+1 {
			return "", "", "", false
		}
		frac, i = s[i+1:j], j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := digits(j)
		if k == j {
			return "", "", "", false
		}
		expText, i = s[i+1:k], k
	}
	return intPart, frac, expText, i == len(s)
}

// expForm renders ±d[0].d[1:]e±exp (lowercase e, explicit sign).
func expForm(sign, d, exp string) string {
	if len(d) > 1 {
		d = d[:1] + "." + d[1:]
	}
	if !strings.HasPrefix(exp, "-") {
		exp = "+" + exp
	}
	return sign + d + "e" + exp
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// formatNumber formats any supported Go numeric value; ok is false when v
// is not numeric.
func formatNumber(v any) (s string, ok bool, err error) {
	if n, isNumber := v.(json.Number); isNumber {
		c, valid := CanonicalNumber(string(n))
		if !valid {
			return "", true, fmt.Errorf("toon: invalid json.Number %q", string(n))
		}
		return c, true, nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(rv.Int(), 10), true, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(rv.Uint(), 10), true, nil
	case reflect.Float32:
		return formatFloat(rv.Float(), 32), true, nil
	case reflect.Float64:
		return formatFloat(rv.Float(), 64), true, nil
	}
	return "", false, nil
}
