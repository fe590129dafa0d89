/*
 * net_names.c — user-facing names of the net/ enums, generated from the
 * X-macro lists in net.h so that study files, the CLI, reports and job keys
 * all spell every value the same way.
 */
#include "net.h"

#include <string.h>

#define NAME_(e, name, desc) name,
#define DESC_(e, name, desc) desc,
static const char *const topology_names[] = {NET_TOPOLOGY_LIST(NAME_)};
static const char *const topology_descs[] = {NET_TOPOLOGY_LIST(DESC_)};
static const char *const routing_names[] = {NET_ROUTING_LIST(NAME_)};
static const char *const routing_descs[] = {NET_ROUTING_LIST(DESC_)};
static const char *const switching_names[] = {NET_SWITCHING_LIST(NAME_)};
static const char *const router_names[] = {NET_ROUTER_LIST(NAME_)};
static const char *const traffic_names[] = {NET_TRAFFIC_LIST(NAME_)};
static const char *const length_names[] = {NET_LENGTH_LIST(NAME_)};
#undef NAME_
#undef DESC_

static const char *name_at(const char *const *names, int count, int i)
{
    return (i >= 0 && i < count) ? names[i] : "?";
}

static int name_find(const char *const *names, int count, const char *s)
{
    for (int i = 0; s && i < count; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return -1;
}

#define NAMED_ENUM_(fn, type, names, count)                                   \
    const char *net_##fn##_name(type v)                                       \
    {                                                                         \
        return name_at(names, count, (int)v);                                 \
    }                                                                         \
    int net_##fn##_parse(const char *s, type *out)                            \
    {                                                                         \
        int i = name_find(names, count, s);                                   \
        if (i < 0)                                                            \
            return ERR_INVALID;                                               \
        *out = (type)i;                                                       \
        return 0;                                                             \
    }

NAMED_ENUM_(topology, net_topology, topology_names, NET_TOPOLOGY_COUNT)
NAMED_ENUM_(routing, net_routing, routing_names, NET_ROUTING_COUNT)
NAMED_ENUM_(switching, net_switching, switching_names, NET_SWITCHING_COUNT)
NAMED_ENUM_(router, net_router, router_names, NET_ROUTER_COUNT)
NAMED_ENUM_(traffic, net_traffic, traffic_names, NET_TRAFFIC_COUNT)
NAMED_ENUM_(length, net_length_dist, length_names, NET_LENGTH_COUNT)
#undef NAMED_ENUM_

const char *net_topology_desc(net_topology t)
{
    return name_at(topology_descs, NET_TOPOLOGY_COUNT, (int)t);
}

const char *net_routing_desc(net_routing r)
{
    return name_at(routing_descs, NET_ROUTING_COUNT, (int)r);
}
