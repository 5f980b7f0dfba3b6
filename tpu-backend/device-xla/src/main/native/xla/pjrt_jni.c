/*
 * JNI shim over the PJRT C API for dev.javelin.backend.xla.PjrtNative.
 *
 * Why a shim: PJRT is a table of function pointers taking args structs; calling it needs native
 * glue. Each entry point zeroes its args struct, sets struct_size to the header's *_STRUCT_SIZE,
 * checks that the function's slot lies inside the plugin's table (an older plugin has a shorter
 * table), and turns a PJRT_Error into a Java PjrtException carrying the plugin's message and code
 * (the error is always destroyed). Handles cross the boundary as jlong.
 */
#define _POSIX_C_SOURCE 200809L /* setenv under -std=c11 */
#include <dlfcn.h>
#include <jni.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pjrt_c_api.h"

#define API(a) ((const PJRT_Api*)(intptr_t)(a))

/* The JNI symbol of PjrtNative's native method `name`, returning `ret`. */
#define JNI(ret, name) JNIEXPORT ret JNICALL Java_dev_javelin_backend_xla_PjrtNative_##name

/* Throws dev.javelin.backend.xla.PjrtException(code, message). */
static void throw_pjrt(JNIEnv* env, int code, const char* msg, size_t len) {
  jclass cls = (*env)->FindClass(env, "dev/javelin/backend/xla/PjrtException");
  if (cls == NULL) return;
  jmethodID ctor = (*env)->GetMethodID(env, cls, "<init>", "(ILjava/lang/String;)V");
  if (ctor == NULL) return;
  char* copy = malloc(len + 1);
  if (copy == NULL) return;
  memcpy(copy, msg, len);
  copy[len] = 0;
  jstring jmsg = (*env)->NewStringUTF(env, copy);
  free(copy);
  jobject ex = (*env)->NewObject(env, cls, ctor, (jint)code, jmsg);
  if (ex != NULL) (*env)->Throw(env, (jthrowable)ex);
}

static void throw_msg(JNIEnv* env, const char* msg) { throw_pjrt(env, -1, msg, strlen(msg)); }

/* Declares `var` of PJRT args struct `T`, zeroed, with struct_size set to the header's size: the
 * preamble every PJRT C API call needs, so a field added by a newer header reads as zero. */
#define PJRT_ARGS(T, var) \
  T var;                  \
  memset(&var, 0, sizeof var); \
  var.struct_size = T##_STRUCT_SIZE

/* The slot of `field` must lie within the plugin's api->struct_size. */
#define HAS_SLOT(api, field) \
  (offsetof(PJRT_Api, field) + sizeof(void*) <= (api)->struct_size && (api)->field != NULL)

#define REQUIRE_SLOT(env, api, field, ret)                                       \
  do {                                                                           \
    if (!HAS_SLOT(api, field)) {                                                 \
      throw_msg(env, "PJRT plugin does not provide " #field " (its API table is too short)"); \
      return ret;                                                                \
    }                                                                            \
  } while (0)

/* The call most entry points make, with `env` and `api` in scope: requires fn's slot, declares
 * `args` (fn's args struct) with `field` set to the Java handle `h`, calls fn, and returns `fail`
 * from the entry point when the slot is missing or the call threw. */
#define CALL_ON(fn, field, h, fail)  \
  REQUIRE_SLOT(env, api, fn, fail);  \
  PJRT_ARGS(fn##_Args, args);        \
  args.field = (void*)(intptr_t)(h); \
  if (check(env, api, api->fn(&args))) return fail

/* Converts err into a pending Java exception and destroys it; returns 1 when there was an error. */
static int check(JNIEnv* env, const PJRT_Api* api, PJRT_Error* err) {
  if (err == NULL) return 0;
  PJRT_ARGS(PJRT_Error_Message_Args, m);
  m.error = err;
  api->PJRT_Error_Message(&m);
  PJRT_ARGS(PJRT_Error_GetCode_Args, c);
  c.error = err;
  PJRT_Error* cerr = api->PJRT_Error_GetCode(&c);
  int code = cerr == NULL ? (int)c.code : 2;
  throw_pjrt(env, code, m.message != NULL ? m.message : "(no message)",
             m.message != NULL ? m.message_size : 12);
  PJRT_ARGS(PJRT_Error_Destroy_Args, d);
  d.error = err;
  api->PJRT_Error_Destroy(&d);
  if (cerr != NULL) {
    d.error = cerr;
    api->PJRT_Error_Destroy(&d);
  }
  return 1;
}

/* Frees an error whose message is not needed (a first failure is already being reported). */
static void destroy_error(const PJRT_Api* api, PJRT_Error* err) {
  if (err == NULL) return;
  PJRT_ARGS(PJRT_Error_Destroy_Args, e);
  e.error = err;
  api->PJRT_Error_Destroy(&e);
}

/* The PJRT object destroys: each returns the destroy's error (NULL when it succeeded), for the
 * caller to report with check or drop with destroy_error. */
static PJRT_Error* destroy_buffer(const PJRT_Api* api, PJRT_Buffer* buffer) {
  PJRT_ARGS(PJRT_Buffer_Destroy_Args, d);
  d.buffer = buffer;
  return api->PJRT_Buffer_Destroy(&d);
}

static PJRT_Error* destroy_event(const PJRT_Api* api, PJRT_Event* event) {
  PJRT_ARGS(PJRT_Event_Destroy_Args, d);
  d.event = event;
  return api->PJRT_Event_Destroy(&d);
}

/* Blocks until `event` completes; returns its error (NULL when it succeeded). */
static PJRT_Error* wait_for(const PJRT_Api* api, PJRT_Event* event) {
  PJRT_ARGS(PJRT_Event_Await_Args, a);
  a.event = event;
  return api->PJRT_Event_Await(&a);
}

/* Destroys `event` (when not NULL) after a wait that returned `await_err`; reports await_err, or
 * else the destroy's error, as the Java exception. Returns 1 when one is pending. */
static int finish_event(JNIEnv* env, const PJRT_Api* api, PJRT_Event* event,
                        PJRT_Error* await_err) {
  int failed = check(env, api, await_err);
  if (event == NULL) return failed;
  PJRT_Error* derr = destroy_event(api, event);
  if (failed) {
    destroy_error(api, derr); /* the first exception stays pending */
    return 1;
  }
  return check(env, api, derr);
}

/* Awaits and destroys an event; returns 1 when a Java exception is pending. */
static int await_event(JNIEnv* env, const PJRT_Api* api, PJRT_Event* event) {
  if (event == NULL) return 0;
  return finish_event(env, api, event, wait_for(api, event));
}

/* A new long[] of the n handles (device, buffer) as jlong; NULL with an exception pending. */
static jlongArray handle_array(JNIEnv* env, void* const* handles, size_t n) {
  jlongArray out = (*env)->NewLongArray(env, (jsize)n);
  for (size_t i = 0; out != NULL && i < n; i++) {
    jlong h = (jlong)(intptr_t)handles[i];
    (*env)->SetLongArrayRegion(env, out, (jsize)i, 1, &h);
  }
  return out;
}

/* A new long[] holding v[0..n); NULL with an exception pending. */
static jlongArray long_array(JNIEnv* env, const jlong* v, jsize n) {
  jlongArray out = (*env)->NewLongArray(env, n);
  if (out != NULL) (*env)->SetLongArrayRegion(env, out, 0, n, v);
  return out;
}

/* The PJRT id (PJRT_DeviceDescription_Id) of a device description into *id; returns 1 when a Java
 * exception is pending. */
static int description_id(JNIEnv* env, const PJRT_Api* api, PJRT_DeviceDescription* description,
                          jlong* id) {
  PJRT_ARGS(PJRT_DeviceDescription_Id_Args, d);
  d.device_description = description;
  if (check(env, api, api->PJRT_DeviceDescription_Id(&d))) return 1;
  *id = d.id;
  return 0;
}

/* A Java string of the first n bytes of s (not NUL-terminated), cut to cap - 1 bytes. */
static jstring bounded_string(JNIEnv* env, const char* s, size_t n, size_t cap) {
  char buf[512];
  if (cap > sizeof buf) cap = sizeof buf;
  size_t len = n < cap - 1 ? n : cap - 1;
  memcpy(buf, s, len);
  buf[len] = 0;
  return (*env)->NewStringUTF(env, buf);
}

/* The unloaded executable behind a loaded one; NULL with an exception pending. Pair it with
 * release_executable. */
static PJRT_Executable* executable_of(JNIEnv* env, const PJRT_Api* api, jlong loaded) {
  PJRT_ARGS(PJRT_LoadedExecutable_GetExecutable_Args, g);
  g.loaded_executable = (PJRT_LoadedExecutable*)(intptr_t)loaded;
  if (check(env, api, api->PJRT_LoadedExecutable_GetExecutable(&g))) return NULL;
  return g.executable;
}

/* Destroys an unloaded executable (from executable_of or compileForTopology). When `failed` or an exception is already pending its
 * error is dropped and 1 returned; otherwise returns 1 when the destroy itself failed. */
static int release_executable(JNIEnv* env, const PJRT_Api* api, PJRT_Executable* exe,
                              int failed) {
  PJRT_ARGS(PJRT_Executable_Destroy_Args, d);
  d.executable = exe;
  PJRT_Error* derr = api->PJRT_Executable_Destroy(&d);
  if (failed || (*env)->ExceptionCheck(env)) {
    destroy_error(api, derr);
    return 1;
  }
  return check(env, api, derr);
}

JNI(jint, headerMinorVersion)(JNIEnv* env, jclass cls) {
  return PJRT_API_MINOR;
}

JNI(jint, headerMajorVersion)(JNIEnv* env, jclass cls) {
  return PJRT_API_MAJOR;
}

/* dlopens the plugin and returns GetPjrtApi(); the library stays loaded for the process. */
JNI(jlong, loadPlugin)(JNIEnv* env, jclass cls, jstring jpath) {
  const char* path = (*env)->GetStringUTFChars(env, jpath, NULL);
  if (path == NULL) return 0;
  void* handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  (*env)->ReleaseStringUTFChars(env, jpath, path);
  if (handle == NULL) {
    const char* why = dlerror();
    throw_msg(env, why != NULL ? why : "dlopen failed");
    return 0;
  }
  typedef const PJRT_Api* (*GetApi)(void);
  GetApi get = (GetApi)dlsym(handle, "GetPjrtApi");
  if (get == NULL) {
    throw_msg(env, "the library does not export GetPjrtApi");
    return 0;
  }
  const PJRT_Api* api = get();
  if (api == NULL) {
    throw_msg(env, "GetPjrtApi returned null");
    return 0;
  }
  return (jlong)(intptr_t)api;
}

/* {struct_size, major, minor} of the plugin's table. */
JNI(jlongArray, apiVersion)(JNIEnv* env, jclass cls, jlong a) {
  const PJRT_Api* api = API(a);
  jlong v[3] = {(jlong)api->struct_size, api->pjrt_api_version.major_version,
                api->pjrt_api_version.minor_version};
  return long_array(env, v, 3);
}

JNI(void, pluginInitialize)(JNIEnv* env, jclass cls, jlong a) {
  const PJRT_Api* api = API(a);
  REQUIRE_SLOT(env, api, PJRT_Plugin_Initialize, );
  PJRT_ARGS(PJRT_Plugin_Initialize_Args, args);
  check(env, api, api->PJRT_Plugin_Initialize(&args));
}

/* Creates a client with int64 named options (names[i] = values[i]). */
JNI(jlong, clientCreate)(JNIEnv* env, jclass cls, jlong a, jobjectArray names,
                         jlongArray values) {
  const PJRT_Api* api = API(a);
  REQUIRE_SLOT(env, api, PJRT_Client_Create, 0);
  jsize n = (*env)->GetArrayLength(env, names);
  PJRT_NamedValue* opts = calloc(n > 0 ? n : 1, sizeof(PJRT_NamedValue));
  jstring* jnames = calloc(n > 0 ? n : 1, sizeof(jstring));
  const char** cnames = calloc(n > 0 ? n : 1, sizeof(char*));
  jlong* vals = (*env)->GetLongArrayElements(env, values, NULL);
  jlong client = 0;
  int ok = opts != NULL && jnames != NULL && cnames != NULL && vals != NULL;
  for (jsize i = 0; ok && i < n; i++) {
    jnames[i] = (jstring)(*env)->GetObjectArrayElement(env, names, i);
    cnames[i] = (*env)->GetStringUTFChars(env, jnames[i], NULL);
    if (cnames[i] == NULL) { ok = 0; break; }
    opts[i].struct_size = PJRT_NamedValue_STRUCT_SIZE;
    opts[i].name = cnames[i];
    opts[i].name_size = strlen(cnames[i]);
    opts[i].type = PJRT_NamedValue_kInt64;
    opts[i].int64_value = vals[i];
    opts[i].value_size = 1;
  }
  if (ok) {
    PJRT_ARGS(PJRT_Client_Create_Args, args);
    args.create_options = opts;
    args.num_options = (size_t)n;
    if (!check(env, api, api->PJRT_Client_Create(&args))) client = (jlong)(intptr_t)args.client;
  } else if (!(*env)->ExceptionCheck(env)) {
    throw_msg(env, "out of memory creating PJRT client options");
  }
  for (jsize i = 0; cnames != NULL && jnames != NULL && i < n; i++) {
    if (cnames[i] != NULL) (*env)->ReleaseStringUTFChars(env, jnames[i], cnames[i]);
  }
  if (vals != NULL) (*env)->ReleaseLongArrayElements(env, values, vals, JNI_ABORT);
  free(opts);
  free(jnames);
  free(cnames);
  return client;
}

JNI(void, clientDestroy)(JNIEnv* env, jclass cls, jlong a, jlong client) {
  const PJRT_Api* api = API(a);
  CALL_ON(PJRT_Client_Destroy, client, client, );
}

/* Fills out, a String[2], with the client's platform name and version ("cpu", "0.1"). */
JNI(void, platform)(JNIEnv* env, jclass cls, jlong a, jlong client, jobjectArray out) {
  const PJRT_Api* api = API(a);
  REQUIRE_SLOT(env, api, PJRT_Client_PlatformVersion, );
  CALL_ON(PJRT_Client_PlatformName, client, client, );
  PJRT_ARGS(PJRT_Client_PlatformVersion_Args, v);
  v.client = args.client;
  if (check(env, api, api->PJRT_Client_PlatformVersion(&v))) return;
  jstring name = bounded_string(env, args.platform_name, args.platform_name_size, 256);
  if (name == NULL) return;
  (*env)->SetObjectArrayElement(env, out, 0, name);
  jstring version = bounded_string(env, v.platform_version, v.platform_version_size, 512);
  if (version != NULL) (*env)->SetObjectArrayElement(env, out, 1, version);
}

JNI(jlongArray, addressableDevices)(JNIEnv* env, jclass cls, jlong a, jlong client) {
  const PJRT_Api* api = API(a);
  CALL_ON(PJRT_Client_AddressableDevices, client, client, NULL);
  return handle_array(env, (void* const*)args.addressable_devices, args.num_addressable_devices);
}

/* One compile call on a pinned program (format "mlir": StableHLO text) and serialized
 * CompileOptionsProto; returns the executable handle, 0 after a thrown PjrtException. */
typedef jlong (*compile_call)(JNIEnv* env, const PJRT_Api* api, jlong target,
                              const PJRT_Program* program, const char* options, size_t options_len);

/* Pins `code` and `options` for the length of `call`, then releases them unchanged. */
static jlong with_program(JNIEnv* env, const PJRT_Api* api, jlong target, jbyteArray code,
                          jbyteArray options, compile_call call) {
  jsize code_len = (*env)->GetArrayLength(env, code);
  jsize opt_len = (*env)->GetArrayLength(env, options);
  jbyte* c = (*env)->GetByteArrayElements(env, code, NULL);
  jbyte* o = (*env)->GetByteArrayElements(env, options, NULL);
  jlong exe = 0;
  if (c != NULL && o != NULL) {
    PJRT_ARGS(PJRT_Program, program);
    program.code = (char*)c;
    program.code_size = (size_t)code_len;
    program.format = "mlir";
    program.format_size = 4;
    exe = call(env, api, target, &program, (const char*)o, (size_t)opt_len);
  }
  if (c != NULL) (*env)->ReleaseByteArrayElements(env, code, c, JNI_ABORT);
  if (o != NULL) (*env)->ReleaseByteArrayElements(env, options, o, JNI_ABORT);
  return exe;
}

static jlong client_compile(JNIEnv* env, const PJRT_Api* api, jlong client,
                            const PJRT_Program* program, const char* options, size_t options_len) {
  PJRT_ARGS(PJRT_Client_Compile_Args, args);
  args.client = (PJRT_Client*)(intptr_t)client;
  args.program = program;
  args.compile_options = options;
  args.compile_options_size = options_len;
  return check(env, api, api->PJRT_Client_Compile(&args)) ? 0 : (jlong)(intptr_t)args.executable;
}

/* Compiles `code` with a serialized CompileOptionsProto into a loaded executable of `client`. */
JNI(jlong, compile)(JNIEnv* env, jclass cls, jlong a, jlong client, jbyteArray code,
                    jbyteArray options) {
  const PJRT_Api* api = API(a);
  REQUIRE_SLOT(env, api, PJRT_Client_Compile, 0);
  return with_program(env, api, client, code, options, client_compile);
}

JNI(jlong, numOutputs)(JNIEnv* env, jclass cls, jlong a, jlong loaded) {
  const PJRT_Api* api = API(a);
  REQUIRE_SLOT(env, api, PJRT_Executable_NumOutputs, -1);
  PJRT_Executable* exe = executable_of(env, api, loaded);
  if (exe == NULL) return -1;
  PJRT_ARGS(PJRT_Executable_NumOutputs_Args, n);
  n.executable = exe;
  int failed = check(env, api, api->PJRT_Executable_NumOutputs(&n));
  if (release_executable(env, api, exe, failed)) return -1;
  return (jlong)n.num_outputs;
}

JNI(void, executableDestroy)(JNIEnv* env, jclass cls, jlong a, jlong loaded) {
  const PJRT_Api* api = API(a);
  CALL_ON(PJRT_LoadedExecutable_Destroy, executable, loaded, );
}

/*
 * Copies a Java primitive array (float[], int[], double[], boolean[]; short[] for bf16 bits) to the device. The copy
 * finishes before return (we await done_with_host_buffer), so the array may be reused at once.
 */
JNI(jlong, bufferFromHost)(JNIEnv* env, jclass cls, jlong a, jlong client, jlong device,
                           jobject data, jint type, jlongArray jdims) {
  const PJRT_Api* api = API(a);
  REQUIRE_SLOT(env, api, PJRT_Client_BufferFromHostBuffer, 0);
  jsize rank = (*env)->GetArrayLength(env, jdims);
  int64_t dims[64];
  if (rank > 64) {
    throw_msg(env, "rank above 64");
    return 0;
  }
  (*env)->GetLongArrayRegion(env, jdims, 0, rank, (jlong*)dims);
  void* host = (*env)->GetPrimitiveArrayCritical(env, (jarray)data, NULL);
  if (host == NULL) return 0;
  PJRT_ARGS(PJRT_Client_BufferFromHostBuffer_Args, args);
  args.client = (PJRT_Client*)(intptr_t)client;
  args.data = host;
  args.type = (PJRT_Buffer_Type)type;
  args.dims = dims;
  args.num_dims = (size_t)rank;
  args.host_buffer_semantics = PJRT_HostBufferSemantics_kImmutableOnlyDuringCall;
  args.device = (PJRT_Device*)(intptr_t)device;
  PJRT_Error* err = api->PJRT_Client_BufferFromHostBuffer(&args);
  PJRT_Event* done = err == NULL ? args.done_with_host_buffer : NULL;
  /* The event must complete while the array is still pinned. */
  PJRT_Error* await_err = done != NULL ? wait_for(api, done) : NULL;
  (*env)->ReleasePrimitiveArrayCritical(env, (jarray)data, host, JNI_ABORT);
  if (check(env, api, err)) return 0;
  if (finish_event(env, api, done, await_err)) {
    destroy_error(api, destroy_buffer(api, args.buffer)); /* the await's exception stays pending */
    return 0;
  }
  return (jlong)(intptr_t)args.buffer;
}

JNI(void, bufferDestroy)(JNIEnv* env, jclass cls, jlong a, jlong buffer) {
  const PJRT_Api* api = API(a);
  PJRT_Error* err = destroy_buffer(api, (PJRT_Buffer*)(intptr_t)buffer);
  if ((*env)->ExceptionCheck(env)) {
    destroy_error(api, err);
    return;
  }
  check(env, api, err);
}

/* Copies a device buffer into a Java primitive array of exactly the buffer's byte size. */
JNI(void, bufferToHost)(JNIEnv* env, jclass cls, jlong a, jlong buffer, jobject dst,
                        jlong dst_bytes) {
  const PJRT_Api* api = API(a);
  REQUIRE_SLOT(env, api, PJRT_Buffer_ToHostBuffer, );
  PJRT_ARGS(PJRT_Buffer_ToHostBuffer_Args, q);
  q.src = (PJRT_Buffer*)(intptr_t)buffer;
  if (check(env, api, api->PJRT_Buffer_ToHostBuffer(&q))) return; /* dst == NULL: size query */
  if ((jlong)q.dst_size != dst_bytes) {
    char msg[160];
    snprintf(msg, sizeof msg, "device buffer holds %zu bytes but the host array holds %lld",
             q.dst_size, (long long)dst_bytes);
    throw_msg(env, msg);
    return;
  }
  void* host = (*env)->GetPrimitiveArrayCritical(env, (jarray)dst, NULL);
  if (host == NULL) return;
  PJRT_ARGS(PJRT_Buffer_ToHostBuffer_Args, args);
  args.src = (PJRT_Buffer*)(intptr_t)buffer;
  args.dst = host;
  args.dst_size = (size_t)dst_bytes;
  PJRT_Error* err = api->PJRT_Buffer_ToHostBuffer(&args);
  PJRT_Error* await_err = err == NULL && args.event != NULL ? wait_for(api, args.event) : NULL;
  (*env)->ReleasePrimitiveArrayCritical(env, (jarray)dst, host, 0);
  if (check(env, api, err)) return;
  finish_event(env, api, args.event, await_err);
}

/* Destroys every non-null buffer of outv[0..n). */
static void destroy_buffers(const PJRT_Api* api, PJRT_Buffer** outv, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (outv[i] != NULL) destroy_error(api, destroy_buffer(api, outv[i]));
  }
}

/*
 * Runs on num_devices devices at once (one partition each, in the executable's addressable-device
 * order). jargs holds num_devices x nargs buffers, device-major; returns num_devices x num_outputs
 * new buffers, device-major, after every device completes.
 */
JNI(jlongArray, execute)(JNIEnv* env, jclass cls, jlong a, jlong loaded, jlongArray jargs,
                         jint num_devices, jint num_outputs) {
  const PJRT_Api* api = API(a);
  REQUIRE_SLOT(env, api, PJRT_LoadedExecutable_Execute, NULL);
  jsize total = (*env)->GetArrayLength(env, jargs);
  if (num_devices < 1 || total % num_devices != 0) {
    throw_msg(env, "execute: the argument count is not a multiple of the device count");
    return NULL;
  }
  size_t nargs = (size_t)(total / num_devices);
  size_t nouts = (size_t)num_outputs * (size_t)num_devices;
  PJRT_Buffer** argv = calloc(total > 0 ? total : 1, sizeof(PJRT_Buffer*));
  PJRT_Buffer** outv = calloc(nouts > 0 ? nouts : 1, sizeof(PJRT_Buffer*));
  PJRT_Buffer*** arg_lists = calloc(num_devices, sizeof(PJRT_Buffer**));
  PJRT_Buffer*** out_lists = calloc(num_devices, sizeof(PJRT_Buffer**));
  PJRT_Event** done = calloc(num_devices, sizeof(PJRT_Event*));
  jlong* h = total > 0 ? (*env)->GetLongArrayElements(env, jargs, NULL) : NULL;
  jlongArray out = NULL;
  if (argv == NULL || outv == NULL || arg_lists == NULL || out_lists == NULL || done == NULL ||
      (total > 0 && h == NULL)) {
    if (!(*env)->ExceptionCheck(env)) throw_msg(env, "out of memory in execute");
    goto cleanup;
  }
  for (jsize i = 0; i < total; i++) argv[i] = (PJRT_Buffer*)(intptr_t)h[i];
  for (jint d = 0; d < num_devices; d++) {
    arg_lists[d] = argv + (size_t)d * nargs;
    out_lists[d] = outv + (size_t)d * num_outputs;
  }
  PJRT_ARGS(PJRT_ExecuteOptions, opts);
  PJRT_ARGS(PJRT_LoadedExecutable_Execute_Args, args);
  args.executable = (PJRT_LoadedExecutable*)(intptr_t)loaded;
  args.options = &opts;
  args.argument_lists = (PJRT_Buffer* const* const*)arg_lists;
  args.num_devices = (size_t)num_devices;
  args.num_args = nargs;
  args.output_lists = (PJRT_Buffer** const*)out_lists;
  args.device_complete_events = done;
  if (!check(env, api, api->PJRT_LoadedExecutable_Execute(&args))) {
    int failed = 0;
    for (jint d = 0; d < num_devices; d++) {
      if (failed) {
        if (done[d] != NULL) destroy_error(api, destroy_event(api, done[d]));
      } else {
        failed = await_event(env, api, done[d]);
      }
    }
    if (!failed) out = handle_array(env, (void* const*)outv, nouts);
    if (out == NULL) destroy_buffers(api, outv, nouts);
  }
cleanup:
  if (h != NULL) (*env)->ReleaseLongArrayElements(env, jargs, h, JNI_ABORT);
  free(argv);
  free(outv);
  free(arg_lists);
  free(out_lists);
  free(done);
  return out;
}

/* The PJRT device ids (PJRT_DeviceDescription_Id) of the given device handles. */
JNI(jlongArray, deviceIds)(JNIEnv* env, jclass cls, jlong a, jlongArray jdevs) {
  const PJRT_Api* api = API(a);
  REQUIRE_SLOT(env, api, PJRT_DeviceDescription_Id, NULL);
  jsize n = (*env)->GetArrayLength(env, jdevs);
  jlongArray out = (*env)->NewLongArray(env, n);
  for (jsize i = 0; out != NULL && i < n; i++) {
    jlong dev;
    (*env)->GetLongArrayRegion(env, jdevs, i, 1, &dev);
    PJRT_ARGS(PJRT_Device_GetDescription_Args, g);
    g.device = (PJRT_Device*)(intptr_t)dev;
    if (check(env, api, api->PJRT_Device_GetDescription(&g))) return NULL;
    jlong id;
    if (description_id(env, api, g.device_description, &id)) return NULL;
    (*env)->SetLongArrayRegion(env, out, i, 1, &id);
  }
  return out;
}

/* The devices a loaded executable runs on, in the order execute takes its argument lists. */
JNI(jlongArray, executableDevices)(JNIEnv* env, jclass cls, jlong a, jlong loaded) {
  const PJRT_Api* api = API(a);
  CALL_ON(PJRT_LoadedExecutable_AddressableDevices, executable, loaded, NULL);
  return handle_array(env, (void* const*)args.addressable_devices, args.num_addressable_devices);
}

/* Bytes a buffer occupies on its device (PJRT_Buffer_OnDeviceSizeInBytes). */
JNI(jlong, bufferOnDeviceSize)(JNIEnv* env, jclass cls, jlong a, jlong buffer) {
  const PJRT_Api* api = API(a);
  CALL_ON(PJRT_Buffer_OnDeviceSizeInBytes, buffer, buffer, -1);
  return (jlong)args.on_device_size_in_bytes;
}

/* Serializes a loaded executable (for the on-disk compile cache). */
JNI(jbyteArray, serialize)(JNIEnv* env, jclass cls, jlong a, jlong loaded) {
  const PJRT_Api* api = API(a);
  REQUIRE_SLOT(env, api, PJRT_Executable_Serialize, NULL);
  PJRT_Executable* exe = executable_of(env, api, loaded);
  if (exe == NULL) return NULL;
  PJRT_ARGS(PJRT_Executable_Serialize_Args, s);
  s.executable = exe;
  jbyteArray out = NULL;
  if (!check(env, api, api->PJRT_Executable_Serialize(&s))) {
    out = (*env)->NewByteArray(env, (jsize)s.serialized_bytes_size);
    if (out != NULL) {
      (*env)->SetByteArrayRegion(env, out, 0, (jsize)s.serialized_bytes_size,
                                 (const jbyte*)s.serialized_bytes);
    }
    if (s.serialized_executable_deleter != NULL) {
      s.serialized_executable_deleter(s.serialized_executable);
    }
  }
  if (release_executable(env, api, exe, 0)) return NULL;
  return out;
}

/* Loads an executable serialized by the same plugin version. */
JNI(jlong, deserializeAndLoad)(JNIEnv* env, jclass cls, jlong a, jlong client,
                               jbyteArray bytes) {
  const PJRT_Api* api = API(a);
  REQUIRE_SLOT(env, api, PJRT_Executable_DeserializeAndLoad, 0);
  jsize len = (*env)->GetArrayLength(env, bytes);
  jbyte* b = (*env)->GetByteArrayElements(env, bytes, NULL);
  if (b == NULL) return 0;
  PJRT_ARGS(PJRT_Executable_DeserializeAndLoad_Args, args);
  args.client = (PJRT_Client*)(intptr_t)client;
  args.serialized_executable = (const char*)b;
  args.serialized_executable_size = (size_t)len;
  jlong exe = 0;
  if (!check(env, api, api->PJRT_Executable_DeserializeAndLoad(&args))) {
    exe = (jlong)(intptr_t)args.loaded_executable;
  }
  (*env)->ReleaseByteArrayElements(env, bytes, b, JNI_ABORT);
  return exe;
}

/* The device address behind a buffer; lets tests see that a donated buffer was reused. */
JNI(jlong, bufferDeviceAddress)(JNIEnv* env, jclass cls, jlong a, jlong buffer) {
  const PJRT_Api* api = API(a);
  CALL_ON(PJRT_Buffer_UnsafePointer, buffer, buffer, 0);
  return (jlong)args.buffer_pointer;
}

/* The device a buffer lives on (PJRT_Buffer_Device). */
JNI(jlong, bufferDevice)(JNIEnv* env, jclass cls, jlong a, jlong buffer) {
  const PJRT_Api* api = API(a);
  CALL_ON(PJRT_Buffer_Device, buffer, buffer, 0);
  return (jlong)(intptr_t)args.device;
}

/* Sets a process environment variable for native code (a plugin reads its chip limits with
 * getenv when its client is created); Java's System.getenv view is not updated. */
JNI(void, setenv)(JNIEnv* env, jclass cls, jstring name, jstring value) {
  const char* n = (*env)->GetStringUTFChars(env, name, NULL);
  if (n == NULL) return;
  const char* v = (*env)->GetStringUTFChars(env, value, NULL);
  if (v == NULL) {
    (*env)->ReleaseStringUTFChars(env, name, n);
    return;
  }
  int rc = setenv(n, v, 1);
  (*env)->ReleaseStringUTFChars(env, value, v);
  (*env)->ReleaseStringUTFChars(env, name, n);
  if (rc != 0) throw_msg(env, "setenv failed");
}

/* ---- Ahead-of-time compilation for a topology (no client, no chips): PJRT_Compile. ---- */

/* Creates the plugin's description of a named topology (libtpu: "v5e:2x4", "v5p:2x2x1"). */
JNI(jlong, topologyCreate)(JNIEnv* env, jclass cls, jlong a, jstring jname) {
  const PJRT_Api* api = API(a);
  REQUIRE_SLOT(env, api, PJRT_TopologyDescription_Create, 0);
  const char* name = (*env)->GetStringUTFChars(env, jname, NULL);
  if (name == NULL) return 0;
  PJRT_ARGS(PJRT_TopologyDescription_Create_Args, args);
  args.topology_name = name;
  args.topology_name_size = strlen(name);
  PJRT_Error* err = api->PJRT_TopologyDescription_Create(&args);
  (*env)->ReleaseStringUTFChars(env, jname, name);
  if (check(env, api, err)) return 0;
  return (jlong)(intptr_t)args.topology;
}

JNI(void, topologyDestroy)(JNIEnv* env, jclass cls, jlong a, jlong topology) {
  const PJRT_Api* api = API(a);
  CALL_ON(PJRT_TopologyDescription_Destroy, topology, topology, );
}

/* The PJRT ids of a topology's devices, in the plugin's order; kind receives the first device's
 * kind ("TPU v5 lite") as element 0 of a String[1]. */
JNI(jlongArray, topologyDevices)(JNIEnv* env, jclass cls, jlong a, jlong topology,
                                 jobjectArray kind) {
  const PJRT_Api* api = API(a);
  CALL_ON(PJRT_TopologyDescription_GetDeviceDescriptions, topology, topology, NULL);
  jlongArray out = (*env)->NewLongArray(env, (jsize)args.num_descriptions);
  for (size_t i = 0; out != NULL && i < args.num_descriptions; i++) {
    jlong id;
    if (description_id(env, api, args.descriptions[i], &id)) return NULL;
    (*env)->SetLongArrayRegion(env, out, (jsize)i, 1, &id);
  }
  if (out != NULL && args.num_descriptions > 0 && HAS_SLOT(api, PJRT_DeviceDescription_Kind)) {
    PJRT_ARGS(PJRT_DeviceDescription_Kind_Args, k);
    k.device_description = args.descriptions[0];
    if (check(env, api, api->PJRT_DeviceDescription_Kind(&k))) return NULL;
    jstring s = bounded_string(env, k.device_kind, k.device_kind_size, 256);
    if (s != NULL) (*env)->SetObjectArrayElement(env, kind, 0, s);
  }
  return out;
}

static jlong topology_compile(JNIEnv* env, const PJRT_Api* api, jlong topology,
                              const PJRT_Program* program, const char* options,
                              size_t options_len) {
  PJRT_ARGS(PJRT_Compile_Args, args);
  args.topology = (const PJRT_TopologyDescription*)(intptr_t)topology;
  args.program = program;
  args.compile_options = options;
  args.compile_options_size = options_len;
  return check(env, api, api->PJRT_Compile(&args)) ? 0 : (jlong)(intptr_t)args.executable;
}

/* Compiles StableHLO text for a topology (PJRT_Compile: no client); returns a PJRT_Executable*
 * (not loaded: it can be inspected, not run). */
JNI(jlong, compileForTopology)(JNIEnv* env, jclass cls, jlong a, jlong topology,
                               jbyteArray code, jbyteArray options) {
  const PJRT_Api* api = API(a);
  REQUIRE_SLOT(env, api, PJRT_Compile, 0);
  return with_program(env, api, topology, code, options, topology_compile);
}

/* Destroys an unloaded PJRT_Executable (from compileForTopology). */
JNI(void, unloadedExecutableDestroy)(JNIEnv* env, jclass cls, jlong a, jlong executable) {
  const PJRT_Api* api = API(a);
  release_executable(env, api, (PJRT_Executable*)(intptr_t)executable, 0);
}

/* {generated code, argument, output, alias, temp} bytes per device of an unloaded executable. */
JNI(jlongArray, compiledMemoryStats)(JNIEnv* env, jclass cls, jlong a, jlong executable) {
  const PJRT_Api* api = API(a);
  CALL_ON(PJRT_Executable_GetCompiledMemoryStats, executable, executable, NULL);
  jlong v[5] = {args.generated_code_size_in_bytes, args.argument_size_in_bytes,
                args.output_size_in_bytes, args.alias_size_in_bytes, args.temp_size_in_bytes};
  return long_array(env, v, 5);
}

/* XLA's cost analysis of an unloaded executable as "name\tvalue\n" lines (numeric properties). */
JNI(jstring, costAnalysis)(JNIEnv* env, jclass cls, jlong a, jlong executable) {
  const PJRT_Api* api = API(a);
  CALL_ON(PJRT_Executable_GetCostAnalysis, executable, executable, NULL);
  size_t cap = 64 + args.num_properties * 320, len = 0;
  char* text = malloc(cap);
  if (text == NULL) {
    throw_msg(env, "out of memory reading the cost analysis");
    return NULL;
  }
  text[0] = 0;
  for (size_t i = 0; i < args.num_properties; i++) {
    const PJRT_NamedValue* p = &args.properties[i];
    double v;
    switch (p->type) {
      case PJRT_NamedValue_kFloat: v = p->float_value; break;
      case PJRT_NamedValue_kInt64: v = (double)p->int64_value; break;
      default: continue;
    }
    int name_len = p->name_size < 256 ? (int)p->name_size : 256;
    int n = snprintf(text + len, cap - len, "%.*s\t%.17g\n", name_len, p->name, v);
    if (n > 0 && (size_t)n < cap - len) len += (size_t)n;
  }
  jstring out = (*env)->NewStringUTF(env, text);
  free(text);
  return out;
}
