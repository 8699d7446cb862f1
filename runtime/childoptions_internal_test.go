package runtime

import (
	"reflect"
	"testing"
	"time"

	metricnoop "go.opentelemetry.io/otel/metric/noop"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// TestChildOptionsWhole (issues 44.1, 45.1): a listed agent's run gets
// every option of its caller's, field by field by reflection, so an option
// added tomorrow flows down without a line of childOptions changing; the
// only fields a child has of its own are named here, each with its
// reason.
func TestChildOptionsWhole(t *testing.T) {
	ownToChild := map[string]string{
		"MaxIterations": "the caller's Loop decides the child's (Child.MaxIterations)",
		"OnEvent":       "the caller's run passes the child's events on, marked (nestedEvents)",
	}
	var caller RunOptions
	v := reflect.ValueOf(&caller).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		if !f.CanSet() {
			t.Fatalf("RunOptions.%s is unexported: a run's state belongs in runState, not in the options", v.Type().Field(i).Name)
		}
		set(t, v.Type().Field(i).Name, f)
	}
	child := reflect.ValueOf(childOptions(caller))
	for i := range v.NumField() {
		name := v.Type().Field(i).Name
		_, own := ownToChild[name]
		same := sameValue(v.Field(i), child.Field(i))
		switch {
		case own && same:
			t.Errorf("RunOptions.%s is the caller's in the child, but %s", name, ownToChild[name])
		case !own && !same:
			t.Errorf("RunOptions.%s is not the caller's in a listed agent's run", name)
		}
	}
}

// set gives a RunOptions field a value that is not its zero value.
func set(t *testing.T, name string, f reflect.Value) {
	switch f.Kind() {
	case reflect.Bool:
		f.SetBool(true)
	case reflect.Int, reflect.Int64:
		if f.Type() == reflect.TypeOf(time.Duration(0)) {
			f.SetInt(int64(3 * time.Second))
		} else {
			f.SetInt(7)
		}
	case reflect.String:
		f.SetString("set")
	case reflect.Func:
		f.Set(reflect.MakeFunc(f.Type(), func(args []reflect.Value) []reflect.Value {
			out := make([]reflect.Value, f.Type().NumOut())
			for i := range out {
				out[i] = reflect.Zero(f.Type().Out(i))
			}
			return out
		}))
	case reflect.Interface:
		// The providers' interfaces: any implementation will do.
		impl := map[reflect.Type]any{}
		for _, x := range []any{fakeTracerProvider(), fakeMeterProvider()} {
			impl[reflect.TypeOf(x)] = x
		}
		for typ, x := range impl {
			if typ.Implements(f.Type()) {
				f.Set(reflect.ValueOf(x))
				return
			}
		}
		t.Fatalf("RunOptions.%s: no value of %s to set it to (teach set one)", name, f.Type())
	default:
		t.Fatalf("RunOptions.%s: a field of kind %s (teach set a value of it)", name, f.Kind())
	}
}

// sameValue compares two option values; funcs by their code pointer.
func sameValue(a, b reflect.Value) bool {
	if a.Kind() == reflect.Func {
		return a.Pointer() == b.Pointer()
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}

func fakeTracerProvider() any { return tracenoop.NewTracerProvider() }
func fakeMeterProvider() any  { return metricnoop.NewMeterProvider() }
