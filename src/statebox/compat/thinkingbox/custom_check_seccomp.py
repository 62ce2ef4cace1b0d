"""The seccomp filters of the custom-check sandbox: classic BPF programs assembled here, no library.

Two filters, stacked (the kernel applies the strictest answer of all filters installed):
- `outer_filter()`, handed to bubblewrap (`--seccomp FD`), which installs it just before it
  starts the servers' Python: sockets, new processes (fork, vfork, clone without CLONE_THREAD,
  clone3), and the kernel interfaces a check has no use for (mount, ptrace, namespaces, keyrings,
  bpf, io_uring, modules, ...) answer EPERM. It cannot refuse `execve`: bubblewrap needs it once.
- `inner_filter()`, installed by the sandbox script itself once Python is up and before the check
  runs: the same, and `execve`/`execveat` too.

Only x86-64 is covered (the numbers below are that architecture's); elsewhere `filters_available()`
is False and the sandbox says it ran without seccomp. A program for another architecture's process,
or an x32 system call, is killed / refused.
"""

from __future__ import annotations

import platform
import struct
from dataclasses import dataclass

AUDIT_ARCH_X86_64 = 0xC000003E
X32_BIT = 0x40000000
CLONE_THREAD = 0x00010000
EPERM, ENOSYS = 1, 38

RET_KILL_PROCESS = 0x80000000
RET_ERRNO = 0x00050000
RET_ALLOW = 0x7FFF0000

# struct seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6]
NR_OFFSET, ARCH_OFFSET, ARG0_LOW_OFFSET = 0, 4, 16

LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
JEQ_K, JGE_K, JSET_K = 0x15, 0x35, 0x45  # BPF_JMP | BPF_JEQ/JGE/JSET | BPF_K
RET_K = 0x06  # BPF_RET | BPF_K

# x86-64 system call numbers (arch/x86/entry/syscalls/syscall_64.tbl).
NETWORK = {
    "socket": 41, "connect": 42, "accept": 43, "sendto": 44, "recvfrom": 45, "sendmsg": 46, "recvmsg": 47,
    "shutdown": 48, "bind": 49, "listen": 50, "getsockname": 51, "getpeername": 52, "socketpair": 53,
    "setsockopt": 54, "getsockopt": 55, "accept4": 288, "recvmmsg": 299, "sendmmsg": 307,
}  # fmt: skip
PROCESSES = {"fork": 57, "vfork": 58}  # clone is checked for CLONE_THREAD; clone3 answers ENOSYS
KERNEL = {
    "ptrace": 101, "uselib": 134, "personality": 135, "vhangup": 153, "modify_ldt": 154, "pivot_root": 155,
    "chroot": 161, "acct": 163, "settimeofday": 164, "mount": 165, "umount2": 166, "swapon": 167, "swapoff": 168,
    "reboot": 169, "sethostname": 170, "setdomainname": 171, "iopl": 172, "ioperm": 173, "init_module": 175,
    "delete_module": 176, "quotactl": 179, "lookup_dcookie": 212, "kexec_load": 246, "add_key": 248,
    "request_key": 249, "keyctl": 250, "unshare": 272, "perf_event_open": 298, "name_to_handle_at": 303,
    "open_by_handle_at": 304, "setns": 308, "process_vm_readv": 310, "process_vm_writev": 311, "kcmp": 312,
    "finit_module": 313, "kexec_file_load": 320, "bpf": 321, "userfaultfd": 323, "io_uring_setup": 425,
    "io_uring_enter": 426, "io_uring_register": 427, "open_tree": 428, "move_mount": 429, "fsopen": 430,
    "fsconfig": 431, "fsmount": 432, "fspick": 433, "pidfd_getfd": 438, "mount_setattr": 442,
}  # fmt: skip
EXEC = {"execve": 59, "execveat": 322}
CLONE, CLONE3 = 56, 435


@dataclass(frozen=True)
class _Insn:
    code: int
    k: int
    true: str | None = None  # label jumped to when the test holds (None: the next instruction)
    false: str | None = None


def filters_available() -> bool:
    """Whether this machine's architecture has the system call table above."""
    return platform.system() == "Linux" and platform.machine() in ("x86_64", "AMD64")


def outer_filter() -> bytes:
    """The filter bubblewrap installs before it starts the check's Python (exec still allowed)."""
    return _assemble(_program(refuse_exec=False))


def inner_filter() -> bytes:
    """The filter the sandbox script installs before the check runs: the outer one, and no exec."""
    return _assemble(_program(refuse_exec=True))


def _program(refuse_exec: bool) -> list[tuple[str | None, _Insn]]:
    refused = {**NETWORK, **PROCESSES, **KERNEL, **(EXEC if refuse_exec else {})}
    body: list[tuple[str | None, _Insn]] = [
        (None, _Insn(LD_W_ABS, ARCH_OFFSET)),
        (None, _Insn(JEQ_K, AUDIT_ARCH_X86_64, false="kill")),
        (None, _Insn(LD_W_ABS, NR_OFFSET)),
        (None, _Insn(JGE_K, X32_BIT, true="deny")),
        (None, _Insn(JEQ_K, CLONE, true="clone")),
        (None, _Insn(JEQ_K, CLONE3, true="enosys")),
    ]
    body += [(None, _Insn(JEQ_K, number, true="deny")) for number in sorted(set(refused.values()))]
    body += [
        ("allow", _Insn(RET_K, RET_ALLOW)),
        ("clone", _Insn(LD_W_ABS, ARG0_LOW_OFFSET)),  # a thread (CLONE_THREAD) is allowed, a process is not
        (None, _Insn(JSET_K, CLONE_THREAD, false="deny")),
        (None, _Insn(RET_K, RET_ALLOW)),  # (BPF jumps only forward: a second allow)
        ("deny", _Insn(RET_K, RET_ERRNO | EPERM)),
        ("enosys", _Insn(RET_K, RET_ERRNO | ENOSYS)),  # the C library then falls back to clone
        ("kill", _Insn(RET_K, RET_KILL_PROCESS)),
    ]
    return body


def _assemble(program: list[tuple[str | None, _Insn]]) -> bytes:
    """`struct sock_filter` records in the machine's byte order; jumps resolved from labels."""
    where = {label: i for i, (label, _) in enumerate(program) if label is not None}

    def offset(i: int, label: str | None) -> int:
        if label is None:
            return 0
        jump = where[label] - i - 1
        if not 0 <= jump <= 255:
            raise ValueError(f"seccomp filter: jump to {label} out of range ({jump})")
        return jump

    records = [struct.pack("=HBBI", insn.code, offset(i, insn.true), offset(i, insn.false), insn.k)
               for i, (_, insn) in enumerate(program)]  # fmt: skip
    return b"".join(records)
