// libmicrohttpd (Debian libmicrohttpd-dev) for Swift.
//
// MHD_start_daemon and MHD_get_daemon_info are C variadic functions, which
// Swift cannot call; these static inline wrappers fix the argument lists the
// service uses so that Swift sees ordinary functions.
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/// Starts a daemon on `address` (IPv4, port 0 for an ephemeral one) with a
/// completion callback, a connection limit and an inactivity timeout.
static inline struct MHD_Daemon *speech_mhd_start(unsigned int flags, const struct sockaddr_in *address,
                                                  MHD_AccessHandlerCallback handler, void *handler_context,
                                                  MHD_RequestCompletedCallback completed, void *completed_context,
                                                  unsigned int connection_limit, unsigned int timeout_seconds,
                                                  size_t connection_memory_limit) {
    return MHD_start_daemon(flags, ntohs(address->sin_port), NULL, NULL, handler, handler_context,
                            MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
                            MHD_OPTION_END);
}

/// The port the daemon listens on (the chosen one when started on port 0).
static inline uint16_t speech_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/// MHD_CONTENT_READER_END_OF_STREAM and _END_WITH_ERROR, which are macros of
/// casts Swift does not import.
static inline ssize_t speech_mhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }
static inline ssize_t speech_mhd_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }
/// MHD_SIZE_UNKNOWN (chunked responses), a macro Swift does not import.
static inline uint64_t speech_mhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }
