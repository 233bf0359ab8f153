//! `sprague solve GAME --distributed`: the one place that talks to MPI (feature `mpi`, rsmpi
//! over the system's Open MPI). It starts MPI, gives the library a `Comm` over the world
//! communicator, and aborts the whole job when a rank panics. The solve itself (partition,
//! batches, agreement on errors, files) is `sprague::solve::distributed`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Set on every rank but rank 0 of a distributed run: those ranks print nothing (rank 0
/// prints the report, the progress and the errors, which every rank agrees on).
static QUIET: AtomicBool = AtomicBool::new(false);

/// Set once rank 0 has printed the error that ends a distributed run ([`Cluster::report`]).
static REPORTED: AtomicBool = AtomicBool::new(false);

/// Whether this process is a rank that prints nothing, or a rank whose error was printed
/// already.
pub fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed) || REPORTED.load(Ordering::Relaxed)
}

/// This process's place in an MPI job, while MPI runs (it is finalised when this is dropped).
pub struct Cluster {
    comm: Arc<dyn sprague::solve::distributed::Comm>,
    rank: usize,
    /// Ranks of the job on this node.
    local: usize,
    #[cfg(feature = "mpi")]
    _universe: mpi::environment::Universe,
}

impl Cluster {
    /// The ranks of this job, to spread a solve over.
    pub fn comm(&self) -> Arc<dyn sprague::solve::distributed::Comm> {
        self.comm.clone()
    }

    /// Whether this is rank 0, the one that prints and writes files.
    pub fn is_root(&self) -> bool {
        self.rank == 0
    }

    /// Ends a run that failed, while MPI still runs: rank 0 prints the error (every rank has
    /// the same one) before leaving the job. MPI_Finalize, when the cluster is dropped, waits
    /// for every rank (Open MPI fences there), so no rank can exit with its code, and have
    /// mpirun end rank 0, before the message is out. No collective call here: a failure on one
    /// rank alone must not leave the others waiting.
    pub fn report(&self, error: &anyhow::Error) {
        if self.is_root() {
            eprintln!("sprague: {error:#}");
            REPORTED.store(true, Ordering::Relaxed);
        }
    }

    /// The worker threads each rank uses by default: the node's cores shared among the
    /// node's ranks.
    pub fn threads_per_rank(&self) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        (cores / self.local.max(1)).max(1)
    }
}

#[cfg(not(feature = "mpi"))]
impl Cluster {
    /// Without the `mpi` feature there is no cluster to join.
    pub fn start() -> anyhow::Result<Cluster> {
        Err(crate::error::bad(
            "--distributed needs a sprague built with MPI: cargo build --release -p sprague-cli --features mpi (with libopenmpi-dev installed), then run it under mpirun or srun",
        ))
    }
}

#[cfg(feature = "mpi")]
mod with_mpi {
    use super::{Cluster, QUIET};
    use mpi::collective::SystemOperation;
    use mpi::datatype::{Partition, PartitionMut};
    use mpi::environment::Threading;
    use mpi::topology::SimpleCommunicator;
    use mpi::traits::*;
    use mpi::Count;
    use sprague::solve::distributed::Comm;
    use std::sync::atomic::Ordering;
    use std::sync::{Arc, Mutex};

    /// The world communicator as the library's [`Comm`]. MPI is started with
    /// `MPI_THREAD_SERIALIZED`: the solve calls it from one thread at a time (the lock makes
    /// sure), not always the main thread.
    pub struct MpiComm {
        rank: usize,
        size: usize,
        lock: Mutex<()>,
    }

    /// Stops the job: MPI cannot go on after a failed collective.
    fn abort(what: &str) -> ! {
        eprintln!("sprague: {what}; aborting the MPI job");
        SimpleCommunicator::world().abort(70)
    }

    /// A count or displacement as MPI takes it (32 bits).
    fn count(n: usize) -> Count {
        Count::try_from(n).unwrap_or_else(|_| {
            abort(&format!(
                "an exchange of {n} bytes passes MPI's 2 GiB limit per message"
            ))
        })
    }

    fn displacements(counts: &[Count]) -> Vec<Count> {
        let mut at = 0usize;
        counts
            .iter()
            .map(|&c| {
                let d = count(at);
                at += c as usize;
                d
            })
            .collect()
    }

    impl Comm for MpiComm {
        fn rank(&self) -> usize {
            self.rank
        }

        fn size(&self) -> usize {
            self.size
        }

        fn exchange(&self, send: &[u8], counts: &[usize]) -> (Vec<u8>, Vec<usize>) {
            let _serial = self.lock.lock().unwrap_or_else(|e| e.into_inner());
            let world = SimpleCommunicator::world();
            let send_counts: Vec<Count> = counts.iter().map(|&c| count(c)).collect();
            let mut recv_counts = vec![0 as Count; self.size];
            world.all_to_all_into(&send_counts[..], &mut recv_counts[..]);
            let send_displs = displacements(&send_counts);
            let recv_displs = displacements(&recv_counts);
            let total: usize = recv_counts.iter().map(|&c| c as usize).sum();
            // An empty Vec<u8> points at address 1, which Open MPI reads as MPI_IN_PLACE:
            // empty buffers point at real memory instead.
            let spare = [0u8; 1];
            let send = if send.is_empty() { &spare[..0] } else { send };
            let mut received = vec![0u8; total.max(1)];
            {
                let outgoing = Partition::new(send, &send_counts[..], &send_displs[..]);
                let mut incoming =
                    PartitionMut::new(&mut received[..], &recv_counts[..], &recv_displs[..]);
                world.all_to_all_varcount_into(&outgoing, &mut incoming);
            }
            received.truncate(total);
            let from = recv_counts.iter().map(|&c| c as usize).collect();
            (received, from)
        }

        fn max(&self, values: &mut [u64]) {
            let _serial = self.lock.lock().unwrap_or_else(|e| e.into_inner());
            let mine = values.to_vec();
            SimpleCommunicator::world().all_reduce_into(&mine[..], values, SystemOperation::max());
        }

        fn sum(&self, values: &mut [u64]) {
            let _serial = self.lock.lock().unwrap_or_else(|e| e.into_inner());
            let mine = values.to_vec();
            SimpleCommunicator::world().all_reduce_into(&mine[..], values, SystemOperation::sum());
        }
    }

    impl Cluster {
        /// Starts MPI (the process must have been started by mpirun, srun or as a singleton)
        /// and joins the world communicator. From here on a panic on any rank aborts the job
        /// with a message naming the rank.
        pub fn start() -> anyhow::Result<Cluster> {
            let Some((universe, threading)) = mpi::initialize_with_threading(Threading::Serialized)
            else {
                return Err(anyhow::anyhow!("MPI was already started"));
            };
            let world = universe.world();
            let (rank, size) = (world.rank() as usize, world.size() as usize);
            if !matches!(threading, Threading::Serialized | Threading::Multiple) {
                abort(&format!(
                    "rank {rank} of {size}: this MPI library does not allow calls from more than one thread (MPI_THREAD_SERIALIZED)"
                ));
            }
            let local = world.split_shared(rank as i32).size() as usize;
            QUIET.store(rank != 0, Ordering::Relaxed);
            let default_hook = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                default_hook(info);
                abort(&format!("rank {rank} of {size} failed: {info}"));
            }));
            Ok(Cluster {
                comm: Arc::new(MpiComm {
                    rank,
                    size,
                    lock: Mutex::new(()),
                }),
                rank,
                local,
                _universe: universe,
            })
        }
    }
}
